import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ListenerLimits } from '../resolved-config.js';
import type { SocketAddressOf } from '../request/fetch-request.js';
import type { ErrorFormat } from '../response/error-format.js';
import type { UpgradeHandler } from '../websocket/upgrade-decision.js';
import type { WebSocketLimits } from '../websocket/websocket-options.js';

/** What a runtime's listener gets from `createServer`: the app's entry points and its limits, resolved. */
export interface ListenTarget {
  readonly limits: ListenerLimits;
  /** The Node request listener (`app.handler`). */
  readonly handler: (incoming: IncomingMessage, response: ServerResponse) => void;
  /** Node's `checkContinue` listener: a request with `Expect: 100-continue`. */
  readonly checkContinue: (incoming: IncomingMessage, response: ServerResponse) => void;
  /**
   * `app.fetch`, told the client's socket address, which a listener knows and `app.fetch` does
   * not: the address itself, or how to ask the runtime for it (with `context`, the runtime's
   * per-request info) when something reads it.
   */
  readonly serve: (request: Request, socketAddress?: string | SocketAddressOf, context?: unknown) => Response | Promise<Response>;
  /** Decides a WebSocket upgrade request; undefined when the application has no `@WebSocket` route. */
  readonly upgrade: UpgradeHandler | undefined;
  /** The limits of WebSocket connections (a runtime that can apply one itself does). */
  readonly webSocket: WebSocketLimits;
  /** Share the port with other processes (SO_REUSEPORT); checked by assertReusePort first. */
  readonly reusePort: boolean;
  /** How the listener's own refusals (a head past the limits, a request while closing) are written. */
  readonly errors: ErrorFormat;
}

export type { SocketAddressOf } from '../request/fetch-request.js';

/** A listening server, on whichever runtime. */
export interface Listening {
  readonly address: { port: number; host: string };
  /** Stops accepting, lets in-flight requests finish for up to `shutdownTimeout` ms, then cuts the rest. */
  close(shutdownTimeout: number): Promise<void>;
}

export type StartListener = (target: ListenTarget, port: number, host: string | undefined) => Promise<Listening>;
