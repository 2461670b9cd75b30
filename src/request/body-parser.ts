import { HttpError } from '../http-error.js';
import { parseQueryString } from './query-string.js';

/** The 400 for a body that is not valid JSON. Non-strict binders catch exactly this one. */
export class BodyParseError extends HttpError {}

function mediaType(contentType: string | null): string {
  if (!contentType) return '';
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

/**
 * Parses a request body by its media type: JSON (`application/json`, `*+json`, or no
 * Content-Type at all, as many clients send JSON without one), urlencoded forms (a null-prototype
 * object like `query`), `text/*` (a string). An empty body is `undefined`. Anything else is a 415,
 * so that a body is never silently dropped.
 */
export function parseBodyBytes(buffer: Buffer, contentType: string | null): unknown {
  if (buffer.length === 0) return undefined;
  const type = mediaType(contentType);
  if (type === '' || type === 'application/json' || type.endsWith('+json')) {
    try {
      return JSON.parse(buffer.toString('utf8'));
    } catch (error) {
      throw new BodyParseError(400, `Failed to parse JSON body: ${(error as Error).message}`);
    }
  }
  if (type === 'application/x-www-form-urlencoded') return parseQueryString(buffer.toString('utf8'), 'form body');
  if (type.startsWith('text/')) return buffer.toString('utf8');
  throw new HttpError(415, `Unsupported Content-Type '${type}': a @Body parameter reads JSON, urlencoded forms and text/*`);
}
