import { HttpError } from '../http-error.js';
import { parseJsonBody } from './body-json.js';
import { parseQueryString } from './query-string.js';

export { BodyParseError } from './body-json.js';

function mediaType(contentType: string | null): string {
  if (!contentType) return '';
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

/** True for a `multipart/form-data` Content-Type, read by the streaming upload parser (see multipart.ts). */
export function isMultipart(contentType: string | null): boolean {
  return contentType !== null && mediaType(contentType) === 'multipart/form-data';
}

/**
 * Parses a request body by its media type: JSON (`application/json`, `*+json`, or no
 * Content-Type at all, as many clients send JSON without one), urlencoded forms (a null-prototype
 * object like `query`), `text/*` (a string). An empty body is `undefined`. Anything else is a 415,
 * so that a body is never silently dropped. JSON nested deeper than `maxDepth` is a 400.
 */
export function parseBodyBytes(buffer: Buffer, contentType: string | null, maxDepth: number): unknown {
  if (buffer.length === 0) return undefined;
  const type = mediaType(contentType);
  if (type === '' || type === 'application/json' || type.endsWith('+json')) return parseJsonBody(buffer, maxDepth);
  if (type === 'application/x-www-form-urlencoded') return parseQueryString(buffer.toString('utf8'), 'form body');
  if (type.startsWith('text/')) return buffer.toString('utf8');
  throw new HttpError(415, `Unsupported Content-Type '${type}': a @Body parameter reads JSON, urlencoded forms and text/*`);
}
