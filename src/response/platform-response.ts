import { keptBody, pendingHeaders, Response as KilnResponse } from './kiln-response.js';

interface RuntimeGlobals {
  Bun?: unknown;
  Deno?: unknown;
  navigator?: { userAgent?: string };
}

const runtime = globalThis as RuntimeGlobals;

/**
 * True where a Response given back by `app.fetch` is sent by the runtime's own server (Bun.serve,
 * Deno.serve, workerd), which reads the body from the platform's internal slot and not through
 * the JavaScript getters Kiln's Response keeps its body behind. On Node every consumer of
 * `app.fetch` reads through those getters.
 */
export const platformSendsResponses =
  runtime.Bun !== undefined || runtime.Deno !== undefined || runtime.navigator?.userAgent === 'Cloudflare-Workers';

const onWorkers = runtime.navigator?.userAgent === 'Cloudflare-Workers';

/** Headers given to a Kiln Response as a plain record and never read, as a record again. */
function headerRecord(pending: string[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let i = 0; i < pending.length; i += 2) record[pending[i]!] = pending[i + 1]!;
  return record;
}

/**
 * A Kiln Response as the global Response its runtime can send (the same status, headers and
 * body); any other as it is. On Workers a body already encoded (`compression()`) is also marked
 * `encodeBody: 'manual'`: workerd otherwise encodes a body itself by its Content-Encoding.
 */
// hot path (Bun, Deno): a handler's `new Response(text, { headers: {...} })`
export function platformResponse(response: Response): Response {
  const encoded = onWorkers && response.headers.has('content-encoding');
  if (!encoded && !(response instanceof KilnResponse)) return response;
  // Headers never read are handed over as the record they were given as (no Headers object is
  // built for them): Deno sends a string body with only a Content-Type on its fast path then.
  const pending = pendingHeaders(response);
  const init: ResponseInit & { encodeBody?: 'manual' } = {
    status: response.status,
    statusText: response.statusText,
    headers: pending === undefined ? response.headers : headerRecord(pending),
  };
  if (encoded) init.encodeBody = 'manual';
  return new globalThis.Response(keptBody(response) ?? response.body, init);
}
