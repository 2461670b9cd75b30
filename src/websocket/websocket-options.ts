import { kilnError } from '../kiln-error.js';
import { TopicHub } from '../realtime/topic-hub.js';
import type { AllowedOrigins } from './allowed-origins.js';

/** `createServer({ webSocket })`: the limits of every WebSocket connection of the application. */
export interface WebSocketOptions {
  /** Largest message a client may send, in bytes (larger: closed with 1009). Default 64 KiB. */
  maxMessageSize?: number;
  /** Messages a client may send per second (more: closed with 1008). Default 100. */
  messagesPerSecond?: number;
  /** Open connections the application accepts at once (more: the upgrade answers 503). Default 10,000. */
  maxConnections?: number;
  /**
   * Milliseconds between two pings; a peer that has not answered the previous one by then is cut
   * (its close code is 1006). Default 30,000; 0 turns keep-alive off. Deno and workerd keep
   * connections alive themselves (docs/guide/streaming.md).
   */
  pingInterval?: number;
  /** Bytes that may wait for a slow reader before the connection is closed with 1008. Default 1 MiB. */
  maxBufferedAmount?: number;
  /**
   * The topic hub rooms go through (`socket.subscribe`, `socket.publish`, `app.publish`): a
   * `TopicHub` from `@kiln/core/realtime`, with `redisTransport` to reach the sockets of every
   * process. Default: a hub of this server's own, in-process.
   */
  hub?: TopicHub<any>;
  /**
   * Browser origins allowed to open a WebSocket besides the server's own (docs: guide/streaming.md,
   * "Origin check"). Default: the server's own origin only; a `@WebSocket` route's own
   * `allowedOrigins` replaces this one. A handshake without `Origin` (not a browser) always passes.
   */
  allowedOrigins?: AllowedOrigins;
}

/** The limits, checked and defaulted once. */
export type WebSocketLimits = Readonly<Required<Omit<WebSocketOptions, 'hub' | 'allowedOrigins'>>>;

export const webSocketDefaults: WebSocketLimits = Object.freeze({
  maxMessageSize: 64 * 1024,
  messagesPerSecond: 100,
  maxConnections: 10_000,
  pingInterval: 30_000,
  maxBufferedAmount: 1024 * 1024,
});

/** The longest delay a timer takes (2^31 - 1 ms). */
const longestTimer = 2_147_483_647;

/** The hub `webSocket.hub` names, or a new in-process one (KILN094 for anything but a TopicHub). */
export function webSocketHub(options: WebSocketOptions | undefined): TopicHub<unknown> {
  const hub = options?.hub;
  if (hub === undefined) return new TopicHub();
  const methods = ['publish', 'subscribe'] as const;
  if (hub === null || typeof hub !== 'object' || methods.some((name) => typeof hub[name] !== 'function')) {
    throw kilnError('KILN094', 'hub', hub === null ? 'null' : typeof hub);
  }
  return hub;
}

/** Checks `webSocket` (KILN094 names the option and the value) and fills in the defaults. */
export function webSocketLimits(options: WebSocketOptions | undefined): WebSocketLimits {
  if (options === undefined) return webSocketDefaults;
  if (options === null || typeof options !== 'object') throw kilnError('KILN094', 'notAnObject', options);
  const known = Object.keys(webSocketDefaults);
  const others = ['hub', 'allowedOrigins'];
  for (const key of Object.keys(options)) {
    if (!known.includes(key) && !others.includes(key)) throw kilnError('KILN094', 'unknownOption', key, [...known, ...others].join(', '));
  }
  const limits = { ...webSocketDefaults };
  for (const key of known as (keyof WebSocketLimits)[]) {
    const value = options[key];
    if (value === undefined) continue;
    const least = key === 'pingInterval' ? 0 : 1;
    const most = key === 'pingInterval' ? longestTimer : Number.MAX_SAFE_INTEGER;
    if (!Number.isInteger(value) || value < least || value > most) throw kilnError('KILN094', 'wholeNumber', key, least, value);
    limits[key] = value;
  }
  return Object.freeze(limits);
}
