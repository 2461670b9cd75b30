// The application's WebSocket connections: how many are open (maxConnections), the topics they
// subscribed to (rooms, through the application's topic hub: every process with a transport), the
// keep-alive sweep, and closing them all with 1001 when the server closes.
import type { Logger } from '../logging/logger.js';
import type { Subscription } from '../realtime/subscription.js';
import type { TopicHub } from '../realtime/topic-hub.js';
import { closeCodes } from './close-codes.js';
import type { SessionHost, SocketSession } from './socket-session.js';
import type { WebSocketLimits } from './websocket-options.js';

export class OpenSockets implements SessionHost {
  /** Connections accepted and not yet closed (an upgrade in progress counts from its acceptance). */
  readonly #sessions = new Set<SocketSession>();
  /** Per topic, this process's sockets subscribed to it and the one hub subscription that feeds them. */
  readonly #rooms = new Map<string, { readonly sessions: Set<SocketSession>; readonly subscription: Subscription }>();
  #sweep: ReturnType<typeof setInterval> | undefined;
  #allClosed: (() => void) | undefined;

  constructor(
    readonly limits: WebSocketLimits,
    readonly hub: TopicHub<unknown>,
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

  subscribe(session: SocketSession, topic: string): Promise<void> {
    let room = this.#rooms.get(topic);
    if (room === undefined) {
      const sessions = new Set<SocketSession>();
      const subscription = this.hub.subscribe(topic, (message) => this.#deliver(sessions, message));
      room = { sessions, subscription };
      this.#rooms.set(topic, room);
    }
    room.sessions.add(session);
    return room.subscription.ready.catch(() => {});
  }

  unsubscribe(session: SocketSession, topic: string): void {
    const room = this.#rooms.get(topic);
    if (room === undefined || !room.sessions.delete(session) || room.sessions.size > 0) return;
    room.subscription.close();
    this.#rooms.delete(topic);
  }

  /**
   * Publishes `message` to `topic` through the hub: every socket subscribed to it, in every
   * process the hub reaches. Never rejects: a message the hub refuses (KILN088) is reported.
   */
  publish(topic: string, message: unknown): Promise<void> {
    try {
      return this.hub.publish(topic, message).catch((error: unknown) => this.#publishFailed(error, topic));
    } catch (error) {
      this.#publishFailed(error, topic);
      return Promise.resolve();
    }
  }

  #publishFailed(error: unknown, topic: string): void {
    this.logger.error({ err: error, topic }, 'a WebSocket message could not be published');
  }

  /** A message of a topic to this process's sockets: each projected to its own route's `Out` type, one text per route. */
  #deliver(sessions: ReadonlySet<SocketSession>, message: unknown): void {
    const texts = new Map<unknown, string>();
    for (const session of [...sessions]) {
      if (!session.isOpen) continue;
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
    return new Promise<void>((resolve) => {
      const cut = setTimeout(
        () => {
          for (const session of [...this.#sessions]) {
            session.terminate();
            session.closed(closeCodes.abnormal, '');
          }
          resolve();
        },
        Math.max(0, deadline - Date.now()),
      );
      this.#allClosed = () => {
        clearTimeout(cut);
        resolve();
      };
      // Set up before the first close: Bun runs its close handler inside ws.close(), so the last
      // connection can be gone before closeWith() returns.
      for (const session of [...this.#sessions]) session.closeWith(closeCodes.goingAway, 'The server is shutting down');
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
