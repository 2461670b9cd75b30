// The application's WebSocket connections: how many are open (maxConnections), the topics they
// subscribed to, the keep-alive sweep, and closing them all with 1001 when the server closes.
import type { Logger } from '../logging/logger.js';
import { closeCodes } from './close-codes.js';
import type { SessionHost, SocketSession } from './socket-session.js';
import type { WebSocketLimits } from './websocket-options.js';

export class OpenSockets implements SessionHost {
  /** Connections accepted and not yet closed (an upgrade in progress counts from its acceptance). */
  readonly #sessions = new Set<SocketSession>();
  readonly #topics = new Map<string, Set<SocketSession>>();
  #sweep: ReturnType<typeof setInterval> | undefined;
  #allClosed: (() => void) | undefined;

  constructor(
    readonly limits: WebSocketLimits,
    readonly logger: Logger,
  ) {}

  /** Whether another connection would pass maxConnections. */
  get full(): boolean {
    return this.#sessions.size >= this.limits.maxConnections;
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** An accepted upgrade: counted from now, so that concurrent upgrades cannot pass the limit. */
  accepted(session: SocketSession): void {
    this.#sessions.add(session);
  }

  opened(_session: SocketSession): void {
    if (this.#sweep === undefined && this.limits.pingInterval > 0) {
      this.#sweep = setInterval(() => this.#keepAlive(), this.limits.pingInterval);
      (this.#sweep as { unref?: () => void }).unref?.();
    }
  }

  closed(session: SocketSession): void {
    this.#sessions.delete(session);
    if (this.#sessions.size > 0) return;
    clearInterval(this.#sweep);
    this.#sweep = undefined;
    this.#allClosed?.();
  }

  subscribe(session: SocketSession, topic: string): void {
    let subscribers = this.#topics.get(topic);
    if (subscribers === undefined) this.#topics.set(topic, (subscribers = new Set()));
    subscribers.add(session);
  }

  unsubscribe(session: SocketSession, topic: string): void {
    const subscribers = this.#topics.get(topic);
    if (subscribers === undefined) return;
    subscribers.delete(session);
    if (subscribers.size === 0) this.#topics.delete(topic);
  }

  /**
   * Delivers `message` to the sockets of this process subscribed to `topic` (`except` left out).
   * Each socket projects it to its own route's `Out` type; sockets of one route share one text.
   */
  publish(topic: string, message: unknown, except?: SocketSession): void {
    const subscribers = this.#topics.get(topic);
    if (subscribers === undefined) return;
    const texts = new Map<unknown, string>();
    for (const session of [...subscribers]) {
      if (session === except || !session.isOpen) continue;
      const key = session.codec?.serialize;
      let text = texts.get(key);
      if (text === undefined) {
        text = session.serialize(message);
        texts.set(key, text);
      }
      session.sendText(text);
    }
  }

  report(error: unknown, route: string): void {
    this.logger.error({ err: error, route }, 'a WebSocket handler failed');
  }

  /**
   * `app.close()`: every connection is closed with 1001; those whose peer has not finished the
   * closing handshake by `deadline` (a time in ms) are cut.
   */
  closeAll(deadline: number): Promise<void> {
    clearInterval(this.#sweep);
    this.#sweep = undefined;
    if (this.#sessions.size === 0) return Promise.resolve();
    for (const session of this.#sessions) session.closeWith(closeCodes.goingAway, 'The server is shutting down');
    return new Promise<void>((resolve) => {
      const cut = setTimeout(
        () => {
          for (const session of [...this.#sessions]) {
            session.terminate();
            session.closed(closeCodes.abnormal, '');
          }
        },
        Math.max(0, deadline - Date.now()),
      );
      this.#allClosed = () => {
        clearTimeout(cut);
        resolve();
      };
    });
  }

  /** Pings every connection; one that did not answer the previous ping is cut (close code 1006). */
  #keepAlive(): void {
    for (const session of [...this.#sessions]) {
      if (!session.isOpen) continue;
      if (!session.alive) {
        session.terminate();
        continue;
      }
      session.alive = false;
      if (!session.ping()) session.alive = true;
    }
  }
}
