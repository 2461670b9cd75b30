// The core suites' server helpers (test/support/server.ts), with a headers-only `get` and what the
// rate-limit suites add: the limit headers of a reply, and a sleep for the Redis-backed windows.
import type { KilnServer } from '@kiln/core';
import { type Reply, request, requestInProcess } from '../../../../test/support/server.js';

export { type Reply, type Started, start } from '../../../../test/support/server.js';

/** A GET over the socket. */
export function get(base: string, path: string, headers?: Record<string, string>): Promise<Reply> {
  return request(base, path, { headers });
}

/** The same GET through `app.fetch`, in process (no socket). */
export function getInProcess(app: KilnServer, path: string, headers?: Record<string, string>): Promise<Reply> {
  return requestInProcess(app, path, { headers });
}

/** The four rate-limit headers of a reply, null where absent. */
export function limitHeaders(reply: Reply) {
  return {
    limit: reply.headers.get('ratelimit-limit'),
    remaining: reply.headers.get('ratelimit-remaining'),
    reset: reply.headers.get('ratelimit-reset'),
    retryAfter: reply.headers.get('retry-after'),
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
