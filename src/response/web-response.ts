import { kCompression, kErrorFormat, kReport, kResponseHeaders } from '../symbols.js';
import { addVary, compressNow, compressionPlan, compressStream, markEncoded } from '../compression/response-compression.js';
import { responseSource } from './response-source.js';
import type { RequestCore } from '../request/kiln-request.js';
import { errorOutcome } from './error-body.js';
import { jsonContentType, serialize, valueStatus } from './json-body.js';
// Kiln's own: a JSON body handed to a middleware's next() or to app.fetch makes no stream unless read.
import { keptBody, Response as KilnResponse } from './kiln-response.js';
import { platformSendsResponses } from './platform-response.js';

// The class of the Responses Kiln builds: its own on Node, the global one where the runtime's
// server sends app.fetch's answer from the platform's body slot (Bun, Deno, workerd), so that no
// answer is built twice there.
const AnswerResponse = platformSendsResponses ? globalThis.Response : KilnResponse;

/**
 * How many of a request's recorded headers a Response already carries. A middleware that returns
 * what `await next()` gave it hands back a Response that has them: the writer must not add its
 * Set-Cookie lines a second time.
 */
const carried = new WeakMap<Response, { req: RequestCore; count: number }>();

/**
 * Recorded headers replace a Response's own, except Set-Cookie, which is added (each recorded line
 * once), and Vary, whose names are merged into the Response's own.
 */
function copyRecorded(recorded: string[], headers: Headers, from: number): void {
  for (let i = 0; i < recorded.length; i += 2) {
    const name = recorded[i]!;
    if (name === 'set-cookie') {
      if (i >= from) headers.append(name, recorded[i + 1]!);
    } else if (name === 'vary') headers.set(name, mergedVary(headers.get(name), recorded[i + 1]!));
    else headers.set(name, recorded[i + 1]!);
  }
}

/** `Vary` with the names of `added` that it lacks (compared case-insensitively); `*` already covers everything. */
function mergedVary(current: string | null, added: string): string {
  if (current === null || current.trim() === '') return added;
  const names = current.split(',').map((name) => name.trim().toLowerCase());
  if (names.includes('*')) return current;
  let merged = current;
  for (const raw of added.split(',')) {
    const name = raw.trim();
    if (name === '' || names.includes(name.toLowerCase())) continue;
    names.push(name.toLowerCase());
    merged = name === '*' ? '*' : `${merged}, ${name}`;
    if (name === '*') break;
  }
  return merged;
}

function alreadyCarried(req: RequestCore, response: Response): number {
  const entry = carried.get(response);
  return entry !== undefined && entry.req === req ? entry.count : 0;
}

function markCarried(req: RequestCore, response: Response, recorded: string[]): Response {
  carried.set(response, { req, count: recorded.length });
  return response;
}

function withoutBody(req: RequestCore, status: number): boolean {
  return req.method === 'HEAD' || status === 204 || status === 304;
}

/**
 * Adds the headers recorded with `req.setResponseHeader` to a Response. A Response whose headers
 * are immutable (`Response.redirect`, a fetched one) is re-wrapped around the same body stream.
 */
export function withRecordedHeaders(req: RequestCore, response: Response): Response {
  const recorded = req[kResponseHeaders];
  if (recorded === undefined) return response;
  const from = alreadyCarried(req, response);
  try {
    copyRecorded(recorded, response.headers, from);
    return markCarried(req, response, recorded);
  } catch {
    const headers = new Headers(response.headers);
    copyRecorded(recorded, headers, from);
    return markCarried(
      req,
      new KilnResponse(response.body, { status: response.status, statusText: response.statusText, headers }),
      recorded,
    );
  }
}

// The header inits of answers that carry no recorded header, where the runtime sends the Response
// (Bun, Deno, workerd). A JSON answer's is one Headers object shared by all of them: a Response
// copies its init's entries into its own list (the shared one is never changed), and a Headers
// init is copied without being validated again (Deno) or natively (Bun), where a plain object's
// name and value are checked per Response: Kiln's Content-Type is not one of the few Deno lets
// through unchecked. Deno still sends such an answer on its fast path (one Content-Type).
const noHeaders = Object.freeze({});
const jsonHeaders = platformSendsResponses ? new Headers({ 'content-type': jsonContentType }) : undefined;

function headersFor(req: RequestCore, contentType: string | undefined): ResponseInit['headers'] {
  if (platformSendsResponses) {
    const recorded = req[kResponseHeaders];
    if (recorded === undefined) {
      if (contentType === undefined) return noHeaders;
      if (contentType === jsonContentType) return jsonHeaders!;
    } else if (!recorded.includes('set-cookie')) return plainHeaders(recorded, contentType);
  }
  const headers = new Headers();
  if (contentType !== undefined) headers.set('content-type', contentType);
  const recorded = req[kResponseHeaders];
  if (recorded !== undefined) copyRecorded(recorded, headers, 0);
  return headers;
}

/**
 * The recorded headers and the content type as a plain object: what copyRecorded makes of them in
 * a new Headers, as each name is recorded once (setResponseHeader replaces a value) and only
 * Set-Cookie, left out here, repeats.
 */
function plainHeaders(recorded: string[], contentType: string | undefined): Record<string, string> {
  const init: Record<string, string> = {};
  if (contentType !== undefined) init['content-type'] = contentType;
  for (let i = 0; i < recorded.length; i += 2) init[recorded[i]!] = recorded[i + 1]!;
  return init;
}

/** A handler's or middleware's result as a web Response (for `next()` and `app.fetch`). */
export function valueToWebResponse(req: RequestCore, value: unknown): Response {
  if (value instanceof Response) return withRecordedHeaders(req, value);
  const status = valueStatus(req, value);
  const body = serialize(req, value);
  if (body === undefined) return carrying(req, new AnswerResponse(null, { status, headers: headersFor(req, undefined) }));
  return carrying(req, new AnswerResponse(withoutBody(req, status) ? null : body, { status, headers: headersFor(req, jsonContentType) }));
}

/** A Response built with every header recorded so far, marked so. */
function carrying(req: RequestCore, response: Response): Response {
  const recorded = req[kResponseHeaders];
  return recorded === undefined ? response : markCarried(req, response, recorded);
}

export function errorToWebResponse(req: RequestCore, error: unknown): Response {
  const format = req[kErrorFormat];
  const outcome = errorOutcome(error, format, req.path);
  if (outcome.unexpected) req[kReport](outcome.reported);
  return carrying(
    req,
    new AnswerResponse(req.method === 'HEAD' ? null : outcome.body, {
      status: outcome.status,
      headers: headersFor(req, format.contentType),
    }),
  );
}

/** What `app.fetch` resolves to: as a socket would send it, so HEAD answers carry no body. */
export function finalWebResponse(req: RequestCore, response: Response): Response {
  if (req.method !== 'HEAD' || response.body === null) return response;
  response.body.cancel().catch(() => {});
  return new AnswerResponse(null, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/**
 * `response` as `compression()` wants it sent by `app.fetch`: compressed (a string or bytes body
 * at once, a stream chunk by chunk), or with `Vary: Accept-Encoding` added, or unchanged. The
 * same decision the socket writer makes.
 */
export function encodedWebResponse(req: RequestCore, response: Response): Response {
  const compression = req[kCompression];
  if (compression === undefined) return response;
  // Kiln's Response: its kept string or bytes, without making a stream to read them back.
  const source = keptBody(response) ?? responseSource(response);
  if (source === undefined && response.body === null) return response;
  const headers: string[] = [];
  response.headers.forEach((value, name) => {
    if (name !== 'content-length' && name !== 'set-cookie') headers.push(name, value);
  });
  for (const cookie of response.headers.getSetCookie()) headers.push('set-cookie', cookie);
  const size =
    source === undefined ? undefined : typeof source === 'string' ? new TextEncoder().encode(source).byteLength : source.byteLength;
  const plan = compressionPlan(compression, req.method, response.status, headers, size);
  if (plan === 'none') return response;
  let body: ConstructorParameters<typeof Response>[0] = source ?? response.body;
  if (plan === 'vary') addVary(headers);
  else {
    markEncoded(headers, plan);
    body =
      source === undefined
        ? compressStream(compression.settings, plan, response.body!)
        : (compressNow(compression.settings, plan, source) as Uint8Array<ArrayBuffer>);
  }
  const out = new Headers();
  for (let i = 0; i < headers.length; i += 2) out.append(headers[i]!, headers[i + 1]!);
  return new Response(body, { status: response.status, statusText: response.statusText, headers: out });
}
