import { kReport, kResponseHeaders } from '../symbols.js';
import type { RequestCore } from '../request/kiln-request.js';
import { errorOutcome } from './error-body.js';
import { jsonContentType, serialize, valueStatus } from './json-body.js';
// Kiln's own: a JSON body handed to a middleware's next() or to app.fetch makes no stream unless read.
import { Response as KilnResponse } from './kiln-response.js';

/** Recorded headers replace a Response's own, except Set-Cookie and Vary, which are added to. */
function copyRecorded(recorded: string[], headers: Headers): void {
  for (let i = 0; i < recorded.length; i += 2) {
    if (recorded[i] === 'set-cookie' || recorded[i] === 'vary') headers.append(recorded[i]!, recorded[i + 1]!);
    else headers.set(recorded[i]!, recorded[i + 1]!);
  }
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
  try {
    copyRecorded(recorded, response.headers);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    copyRecorded(recorded, headers);
    return new KilnResponse(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

function headersFor(req: RequestCore, contentType: string | undefined): Headers {
  const headers = new Headers();
  if (contentType !== undefined) headers.set('content-type', contentType);
  const recorded = req[kResponseHeaders];
  if (recorded !== undefined) copyRecorded(recorded, headers);
  return headers;
}

/** A handler's or middleware's result as a web Response (for `next()` and `app.fetch`). */
export function valueToWebResponse(req: RequestCore, value: unknown): Response {
  if (value instanceof Response) return withRecordedHeaders(req, value);
  const status = valueStatus(req, value);
  const body = serialize(req, value);
  if (body === undefined) return new KilnResponse(null, { status, headers: headersFor(req, undefined) });
  return new KilnResponse(withoutBody(req, status) ? null : body, { status, headers: headersFor(req, jsonContentType) });
}

export function errorToWebResponse(req: RequestCore, error: unknown): Response {
  const outcome = errorOutcome(error);
  if (outcome.unexpected) req[kReport](outcome.reported);
  return new KilnResponse(req.method === 'HEAD' ? null : outcome.body, {
    status: outcome.status,
    headers: headersFor(req, jsonContentType),
  });
}

/** What `app.fetch` resolves to: as a socket would send it, so HEAD answers carry no body. */
export function finalWebResponse(req: RequestCore, response: Response): Response {
  if (req.method !== 'HEAD' || response.body === null) return response;
  response.body.cancel().catch(() => {});
  return new KilnResponse(null, { status: response.status, statusText: response.statusText, headers: response.headers });
}
