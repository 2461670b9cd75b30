import type { KilnRequest } from '@kiln/core';

/**
 * The default 429: JSON `{ error, message }` with the seconds to wait, or the app's RFC 9457
 * problem details (the same message as `detail`) when it answers errors that way
 * (`createServer({ errors: 'problem+json' })`, through `req.problemResponse`).
 */
export function tooManyRequests(req: KilnRequest, retryAfterSeconds: number): Response {
  const message = `Rate limit exceeded. Try again in ${retryAfterSeconds} seconds.`;
  // An older @kiln/core has no problemResponse: its error body is the JSON one.
  const problem = typeof req.problemResponse === 'function' ? req.problemResponse(429, message) : undefined;
  return problem ?? json429({ error: 'Too Many Requests', message });
}

/** A `handler`'s result as the response: a `Response` as is, `undefined` as the default 429, anything else as JSON 429. */
export function handlerResponse(req: KilnRequest, value: unknown, retryAfterSeconds: number): Response {
  if (value instanceof Response) return value;
  if (value === undefined) return tooManyRequests(req, retryAfterSeconds);
  return json429(value);
}

function json429(value: unknown): Response {
  return new Response(JSON.stringify(value) ?? 'null', {
    status: 429,
    headers: { 'content-type': 'application/json' },
  });
}
