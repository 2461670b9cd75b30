import { kilnError } from '../kiln-error.js';
import type { HubTransport } from './hub-transport.js';
import { CallbackSubscription, type MessageStream, type OverflowPolicy, QueuedSubscription, type Subscription } from './subscription.js';

export interface TopicHubOptions {
  /** Carries messages between processes (`redisTransport(...)`). Default: none, the hub delivers in this process. */
  readonly transport?: HubTransport;
  /** Messages an iterating subscriber may have waiting before `overflow` applies. Default 256. */
  readonly bufferSize?: number;
  /** What a full buffer does: `'end'` (default) ends that subscription, `'drop-oldest'` drops its oldest message. */
  readonly overflow?: OverflowPolicy;
  /** Told of a callback that threw and of a transport that failed. Default: `console.error`. */
  readonly onError?: (error: unknown, topic: string) => void;
}

export interface SubscribeOptions {
  /** Closes the subscription when aborted (pass `req.signal`: it ends with the request). */
  readonly signal?: AbortSignal;
  /** This subscriber's buffer, instead of the hub's `bufferSize`. */
  readonly bufferSize?: number;
  /** This subscriber's policy, instead of the hub's `overflow`. */
  readonly overflow?: OverflowPolicy;
}

/** A message's receiver in the callback form of `subscribe`. */
export type TopicListener<M> = (message: M, topic: string) => void;

type Subscriber<M> = QueuedSubscription<M> | CallbackSubscription<M>;

const defaultBufferSize = 256;

/**
 * Topics that messages are published to and subscribers receive: in this process by default, in
 * every process of the app with a transport (`redisTransport`). A subscriber either iterates
 * (`for await`, each with a bounded buffer: a subscriber that falls `bufferSize` messages behind
 * is ended, or loses its oldest message) or gives a callback (called as each message arrives:
 * what it does with it, such as a WebSocket send, is its own to bound).
 *
 * In-process, subscribers receive the published value itself (do not change it); through a
 * transport they receive its JSON round trip, so publish JSON values.
 *
 * @example
 * ```ts
 * const hub = new TopicHub<Tick>();
 * // an SSE handler: every tick until the client goes away
 * for await (const tick of hub.subscribe('ticks', { signal: req.signal })) yield tick;
 * // a WebSocket handler: a callback, closed with the socket
 * const subscription = hub.subscribe('room:1', (message) => socket.send(JSON.stringify(message)));
 * await hub.publish('ticks', { at: Date.now() });
 * ```
 */
export class TopicHub<M = unknown> {
  readonly #topics = new Map<string, { readonly subscribers: Set<Subscriber<M>>; readonly ready: Promise<void> }>();
  readonly #transport: HubTransport | undefined;
  readonly #bufferSize: number;
  readonly #overflow: OverflowPolicy;
  readonly #onError: (error: unknown, topic: string) => void;
  #closed = false;

  constructor(options: TopicHubOptions = {}) {
    if (options === null || typeof options !== 'object') throw kilnError('KILN088', 'options');
    this.#bufferSize = bufferSizeOf(options.bufferSize ?? defaultBufferSize);
    this.#overflow = overflowOf(options.overflow ?? 'end');
    const { transport, onError } = options;
    if (onError !== undefined && typeof onError !== 'function') throw kilnError('KILN088', 'onError');
    this.#onError = onError ?? ((error, topic) => console.error(`TopicHub: topic ${JSON.stringify(topic)}:`, error));
    if (transport !== undefined) {
      const methods = ['start', 'publish', 'subscribe', 'unsubscribe', 'close'] as const;
      if (transport === null || typeof transport !== 'object' || methods.some((name) => typeof transport[name] !== 'function'))
        throw kilnError('KILN088', 'transport');
      transport.start((topic, payload) => this.#deliverPayload(topic, payload));
    }
    this.#transport = transport;
  }

  /**
   * Sends `message` to every subscriber of `topic` (in every process, through a transport).
   * Resolves once delivered in-process, or once the transport took it.
   */
  async publish(topic: string, message: M): Promise<void> {
    assertTopic(topic);
    if (this.#closed) throw kilnError('KILN088', 'closed', 'publish');
    if (this.#transport === undefined) return this.#deliver(topic, message);
    const payload = JSON.stringify(message);
    if (payload === undefined) throw kilnError('KILN088', 'unsendable', topic, typeof message);
    await this.#transport.publish(topic, payload);
  }

  /** Iterates the messages published to `topic` from now on, until closed (see {@link MessageStream}). */
  subscribe(topic: string, options?: SubscribeOptions): MessageStream<M>;
  /** Calls `listener` with each message published to `topic` from now on, until the subscription is closed. */
  subscribe(topic: string, listener: TopicListener<M>, options?: Pick<SubscribeOptions, 'signal'>): Subscription;
  subscribe(topic: string, listenerOrOptions?: TopicListener<M> | SubscribeOptions, maybeOptions?: SubscribeOptions): Subscription {
    assertTopic(topic);
    if (this.#closed) throw kilnError('KILN088', 'closed', 'subscribe');
    const listener = typeof listenerOrOptions === 'function' ? listenerOrOptions : undefined;
    const options = (listener === undefined ? listenerOrOptions : maybeOptions) ?? {};
    if (options === null || typeof options !== 'object') throw kilnError('KILN088', 'subscribeOptions');
    const { signal } = options;
    if (signal !== undefined && !(signal instanceof AbortSignal)) throw kilnError('KILN088', 'signal');
    const entry = this.#topicEntry(topic);
    const detach = () => {
      signal?.removeEventListener('abort', close);
      this.#leave(topic, subscriber);
    };
    const subscriber: Subscriber<M> =
      listener !== undefined
        ? new CallbackSubscription(topic, entry.ready, listener, detach)
        : new QueuedSubscription<M>(
            topic,
            entry.ready,
            options.bufferSize === undefined ? this.#bufferSize : bufferSizeOf(options.bufferSize),
            options.overflow === undefined ? this.#overflow : overflowOf(options.overflow),
            detach,
          );
    const close = () => subscriber.close();
    entry.subscribers.add(subscriber);
    if (signal?.aborted) subscriber.close();
    else signal?.addEventListener('abort', close, { once: true });
    return subscriber;
  }

  /** How many subscribers `topic` has in this process. */
  subscriberCount(topic: string): number {
    return this.#topics.get(topic)?.subscribers.size ?? 0;
  }

  /** Closes every subscription (iterations end, callbacks stop) and the transport. Closing twice does nothing. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const { subscribers } of [...this.#topics.values()]) for (const subscriber of [...subscribers]) subscriber.close();
    await this.#transport?.close();
  }

  #topicEntry(topic: string) {
    let entry = this.#topics.get(topic);
    if (entry === undefined) {
      const ready = this.#transport === undefined ? Promise.resolve() : this.#transport.subscribe(topic);
      // Whoever awaits `ready` sees a failure; nobody awaiting it is no unhandled rejection.
      ready.catch((error: unknown) => this.#onError(error, topic));
      entry = { subscribers: new Set(), ready };
      this.#topics.set(topic, entry);
    }
    return entry;
  }

  #leave(topic: string, subscriber: Subscriber<M>): void {
    const entry = this.#topics.get(topic);
    if (entry === undefined || !entry.subscribers.delete(subscriber) || entry.subscribers.size > 0) return;
    this.#topics.delete(topic);
    if (this.#transport !== undefined && !this.#closed)
      this.#transport.unsubscribe(topic).catch((error: unknown) => this.#onError(error, topic));
  }

  #deliverPayload(topic: string, payload: string): void {
    if (!this.#topics.has(topic)) return;
    let message: M;
    try {
      message = JSON.parse(payload) as M;
    } catch (error) {
      this.#onError(error, topic);
      return;
    }
    this.#deliver(topic, message);
  }

  #deliver(topic: string, message: M): void {
    const entry = this.#topics.get(topic);
    if (entry === undefined) return;
    // A copy: a callback may subscribe or close while the message goes round.
    for (const subscriber of [...entry.subscribers]) {
      if (subscriber instanceof QueuedSubscription) subscriber.push(message);
      else if (!subscriber.closed) {
        try {
          subscriber.listener(message, topic);
        } catch (error) {
          this.#onError(error, topic);
        }
      }
    }
  }
}

function assertTopic(topic: unknown): asserts topic is string {
  if (typeof topic !== 'string' || topic === '')
    throw kilnError('KILN088', 'topic', typeof topic === 'string' ? 'an empty string' : typeof topic);
}

function bufferSizeOf(value: unknown): number {
  if (!Number.isInteger(value) || (value as number) < 1) throw kilnError('KILN088', 'bufferSize', value);
  return value as number;
}

function overflowOf(value: unknown): OverflowPolicy {
  if (value !== 'end' && value !== 'drop-oldest') throw kilnError('KILN088', 'overflow', value);
  return value;
}
