import { kilnError } from '../kiln-error.js';

/** What `@Sse(options)` takes. */
export interface SseOptions {
  /** Milliseconds of quiet after which a comment line (`:`) is sent, so proxies and clients keep the connection. Default 15000; 0 sends none. */
  readonly heartbeat?: number;
  /** A `retry:` field sent when the stream opens: milliseconds the client waits before it reconnects. Default: none (the client's own, about 3 s in browsers). */
  readonly retry?: number;
}

/** The options of an event-stream route, checked and defaulted at start-up. */
export interface EventStreamSettings {
  readonly heartbeat: number;
  readonly retry: number | undefined;
}

const longestTimer = 2_147_483_647;

export function eventStreamSettings(options: SseOptions | undefined): EventStreamSettings {
  if (options === undefined) return { heartbeat: 15_000, retry: undefined };
  if (options === null || typeof options !== 'object') throw kilnError('KILN089', 'options');
  const { heartbeat = 15_000, retry } = options;
  if (!Number.isInteger(heartbeat) || heartbeat < 0 || heartbeat > longestTimer) throw kilnError('KILN089', 'heartbeat', heartbeat);
  if (retry !== undefined && (!Number.isInteger(retry) || retry < 0)) throw kilnError('KILN089', 'retry', retry);
  return { heartbeat, retry };
}
