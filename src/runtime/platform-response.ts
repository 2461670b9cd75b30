import { keptBody, Response as KilnResponse } from '../response/kiln-response.js';

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

/**
 * A Kiln Response as the global Response its runtime can send (the same status, headers and
 * body); any other as it is. On Workers a body already encoded (`compression()`) is also marked
 * `encodeBody: 'manual'`: workerd otherwise encodes a body itself by its Content-Encoding.
 */
export function platformResponse(response: Response): Response {
  const encoded = onWorkers && response.headers.has('content-encoding');
  if (!encoded && !(response instanceof KilnResponse)) return response;
  const init: ResponseInit & { encodeBody?: 'manual' } = {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  };
  if (encoded) init.encodeBody = 'manual';
  return new globalThis.Response(keptBody(response) ?? response.body, init);
}
