// One WebSocket connection, whichever runtime holds it: the limits (size, rate, slow reader), the
// typed reading and writing of messages, the handlers' calls, and the connection's topics. The
// runtime adapters (src/adapter/*/…-websocket.ts) feed it what happens on their socket.
import type { BodyValidationError } from '../binding/validate-body.js';
import { kilnError } from '../kiln-error.js';
import { closeCodes, closeReason, isApplicationCloseCode } from './close-codes.js';
import type { Socket, SocketHandlers } from './socket.js';
import type { SocketCodec } from './socket-codec.js';
import type { SocketTransport } from './socket-transport.js';
import type { WebSocketLimits } from './websocket-options.js';

/** What a session needs of the application's open sockets (see open-sockets.ts). */
export interface SessionHost {
  readonly limits: WebSocketLimits;
  opened(session: SocketSession): void;
  closed(session: SocketSession): void;
  subscribe(session: SocketSession, topic: string): Promise<void>;
  unsubscribe(session: SocketSession, topic: string): void;
  publish(topic: string, message: unknown): Promise<void>;
  /** Reports an error a handler threw (the application's onError, or the log). */
  report(error: unknown, route: string): void;
}

type State = 'pending' | 'open' | 'closing' | 'closed';

/** The first failure typia found, as a close reason: `$input.text: expected string`. */
function invalidReason(errors: readonly BodyValidationError[]): string {
  const first = errors[0];
  return first === undefined ? 'The message does not fit its declared type' : `${first.path}: expected ${first.expected}`;
}

export class SocketSession implements Socket<unknown> {
  #state: State = 'pending';
  #transport: SocketTransport | undefined;
  /** Whether the peer answered the last ping (see OpenSockets' sweep). */
  alive = true;
  #windowStart = 0;
  #inWindow = 0;
  readonly #topics = new Set<string>();

  constructor(
    readonly handlers: SocketHandlers<unknown, unknown>,
    readonly codec: SocketCodec | undefined,
    /** `Controller.method`, for reports. */
    readonly route: string,
    readonly host: SessionHost,
  ) {}

  // ---- what a handler calls (Socket) ----

  get isOpen(): boolean {
    return this.#state === 'open';
  }
  get topics(): ReadonlySet<string> {
    return this.#topics;
  }
  get bufferedAmount(): number {
    return this.#transport?.bufferedAmount ?? 0;
  }

  send(message: unknown): boolean {
    if (this.#state !== 'open') return false;
    return this.sendText(this.serialize(message));
  }

  close(code: number = closeCodes.normal, reason = ''): void {
    if (!isApplicationCloseCode(code)) throw kilnError('KILN095', 'closeCode', code);
    this.closeWith(code, reason);
  }

  subscribe(topic: string): Promise<void> {
    if (this.#state === 'closed' || this.#topics.has(topic)) return Promise.resolve();
    this.#topics.add(topic);
    return this.host.subscribe(this, topic);
  }

  unsubscribe(topic: string): void {
    if (!this.#topics.delete(topic)) return;
    this.host.unsubscribe(this, topic);
  }

  publish(topic: string, message: unknown): Promise<void> {
    return this.host.publish(topic, message);
  }

  // ---- what the open sockets and the adapters call ----

  /** The JSON text of a message, projected to the route's `Out` type. */
  serialize(message: unknown): string {
    const serialize = this.codec?.serialize;
    return serialize === undefined ? (JSON.stringify(message) ?? 'null') : serialize(message);
  }

  /** Sends text already serialised for this socket; a slow reader past maxBufferedAmount is closed. */
  sendText(text: string): boolean {
    const transport = this.#transport;
    if (this.#state !== 'open' || transport === undefined) return false;
    if (transport.bufferedAmount > this.host.limits.maxBufferedAmount) {
      this.closeWith(closeCodes.policyViolation, 'The client reads too slowly');
      return false;
    }
    try {
      transport.send(text);
    } catch (error) {
      // workerd refuses a write from another request's code (a room without Durable Objects).
      this.host.report(error, this.route);
      return false;
    }
    return true;
  }

  /** The runtime opened the connection. */
  opened(transport: SocketTransport): void {
    this.#transport = transport;
    if (this.#state !== 'pending') return;
    this.#state = 'open';
    this.host.opened(this);
    this.#call(() => this.handlers.open?.(this));
  }

  /** A text message of `bytes` bytes (UTF-8). */
  receivedText(text: string, bytes: number): void {
    if (!this.#admit(bytes)) return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.closeWith(closeCodes.invalidPayload, 'The message is not valid JSON');
      return;
    }
    const validate = this.codec?.validate;
    if (validate !== undefined) {
      const result = validate(message);
      if (!result.success) {
        this.closeWith(closeCodes.invalidPayload, invalidReason(result.errors));
        return;
      }
    }
    if (this.handlers.message !== undefined) this.#call(() => this.handlers.message!(this, message));
  }

  /** A binary message: Kiln's sockets carry JSON text. */
  receivedBinary(bytes: number): void {
    if (!this.#admit(bytes)) return;
    this.closeWith(closeCodes.unsupportedData, 'Binary messages are not accepted: send JSON text');
  }

  /** The peer answered a ping. */
  ponged(): void {
    this.alive = true;
  }

  /** The connection is closed, whichever side closed it. */
  closed(code: number, reason: string): void {
    if (this.#state === 'closed') return;
    const wasOpen = this.#state !== 'pending';
    this.#state = 'closed';
    for (const topic of this.#topics) this.host.unsubscribe(this, topic);
    this.#topics.clear();
    this.host.closed(this);
    if (wasOpen && this.handlers.close !== undefined) this.#call(() => this.handlers.close!(this, code, reason));
  }

  /** Starts the closing handshake with any code (Kiln's own included). */
  closeWith(code: number, reason: string): void {
    if (this.#state !== 'open') return;
    this.#state = 'closing';
    this.#transport?.close(code, closeReason(reason));
  }

  /** Cuts the connection (a dead peer, or a close that took too long). */
  terminate(): void {
    this.#transport?.terminate();
  }

  /** Sends a ping where the runtime lets Kiln do it; false where it keeps connections alive itself. */
  ping(): boolean {
    const ping = this.#transport?.ping;
    if (ping === undefined || this.#state !== 'open') return false;
    ping();
    return true;
  }

  /** Whether a message of `bytes` bytes is within the size and rate limits; closes the connection when not. */
  #admit(bytes: number): boolean {
    if (this.#state !== 'open') return false;
    const { maxMessageSize, messagesPerSecond } = this.host.limits;
    if (bytes > maxMessageSize) {
      this.closeWith(closeCodes.tooBig, `The message is larger than ${maxMessageSize} bytes`);
      return false;
    }
    const now = Date.now();
    if (now - this.#windowStart >= 1000) {
      this.#windowStart = now;
      this.#inWindow = 0;
    }
    if (++this.#inWindow > messagesPerSecond) {
      this.closeWith(closeCodes.policyViolation, `More than ${messagesPerSecond} messages in a second`);
      return false;
    }
    return true;
  }

  /** Calls a handler: what it throws (or rejects with) is reported and closes the connection with 1011. */
  #call(handler: () => unknown): void {
    const failed = (error: unknown): void => {
      this.host.report(error, this.route);
      this.closeWith(closeCodes.internalError, 'The server failed to handle the connection');
    };
    try {
      const result = handler();
      if (result instanceof Promise) result.catch(failed);
    } catch (error) {
      failed(error);
    }
  }
}
