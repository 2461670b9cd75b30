import { BodyParseError, isMultipart } from '../request/body-parser.js';
import type { KilnRequest } from '../request/kiln-request.js';
import { HttpError } from '../http-error.js';

/**
 * Reads and parses the body once for all `@Body` parameters of a binder. Without `strict`, a body
 * that is not valid JSON is `undefined`; with it, the 400 `Failed to parse JSON body: <detail>`
 * propagates. Every other HttpError (413 too large, 415 unsupported type) propagates in both modes.
 */
export function readBody(req: KilnRequest, strict: boolean): Promise<unknown> {
  // Files are read only by a route whose @Body type has a File: refused before a byte is read.
  if (isMultipart(req.headers.get('content-type'))) return Promise.reject(multipartRefused);
  const parsed = req.parseBody();
  return strict ? parsed : parsed.catch(ignoreParseError);
}

const multipartRefused = new HttpError(
  415,
  "Unsupported Content-Type 'multipart/form-data': this route's @Body has no File; it reads JSON, urlencoded forms and text/*",
);

function ignoreParseError(error: unknown): undefined {
  if (error instanceof BodyParseError) return undefined;
  throw error;
}

/**
 * `@Body('field')`: an own field of an object body; `undefined` when the body is not an object or
 * lacks the field (never an inherited member such as `constructor`).
 */
export function bodyField(body: unknown, field: string): unknown {
  return typeof body === 'object' && body !== null && Object.hasOwn(body, field) ? (body as Record<string, unknown>)[field] : undefined;
}

/** With `strict`, an absent body for a `@Body()` parameter whose type does not admit `undefined` is a 400. */
export function requiredBody(body: unknown, strict: boolean): unknown {
  if (strict && body === undefined) throw new HttpError(400, 'Request body is required');
  return body;
}
