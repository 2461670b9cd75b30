/** The default 429: JSON `{ error, message }` with the seconds to wait. */
export function tooManyRequests(retryAfterSeconds: number): Response {
  return json429({
    error: 'Too Many Requests',
    message: `Rate limit exceeded. Try again in ${retryAfterSeconds} seconds.`,
  });
}

/** A `handler`'s result as the response: a `Response` as is, `undefined` as the default 429, anything else as JSON 429. */
export function handlerResponse(value: unknown, retryAfterSeconds: number): Response {
  if (value instanceof Response) return value;
  if (value === undefined) return tooManyRequests(retryAfterSeconds);
  return json429(value);
}

function json429(value: unknown): Response {
  return new Response(JSON.stringify(value) ?? 'null', {
    status: 429,
    headers: { 'content-type': 'application/json' },
  });
}
