/** What a slow iterating subscriber's full buffer does: end its subscription, or drop its oldest message. */
export type OverflowPolicy = 'end' | 'drop-oldest';

/** One subscriber of a topic: a callback, or an async iterator over a bounded queue. */
export interface Subscription {
  readonly topic: string;
  /** Resolves once the hub's transport listens to the topic (at once in-process): messages published after it are delivered. */
  readonly ready: Promise<void>;
  /** True once closed: by `close()`, its signal, `hub.close()`, the end of a `for await` loop, or an overflow. */
  readonly closed: boolean;
  /** Stops delivery; a pending `next()` resolves as done. Closing twice does nothing. */
  close(): void;
}

/** A subscription read with `for await`: each message once, in the order published. */
export interface MessageStream<M> extends Subscription, AsyncIterableIterator<M> {
  /** True when the subscription ended because its buffer was full (`overflow: 'end'`). */
  readonly overflowed: boolean;
  /** Messages dropped because the buffer was full (`overflow: 'drop-oldest'`). */
  readonly dropped: number;
}

/** A bounded queue read as an async iterator; the hub pushes, the reader pulls. */
export class QueuedSubscription<M> implements MessageStream<M> {
  readonly #queue: M[] = [];
  #head = 0;
  /** Readers waiting for a message, first come first served. */
  readonly #waiting: ((result: IteratorResult<M, undefined>) => void)[] = [];
  #closed = false;
  #overflowed = false;
  #dropped = 0;

  constructor(
    readonly topic: string,
    readonly ready: Promise<void>,
    private readonly capacity: number,
    private readonly overflow: OverflowPolicy,
    private readonly detach: () => void,
  ) {}

  get closed(): boolean {
    return this.#closed;
  }

  get overflowed(): boolean {
    return this.#overflowed;
  }

  get dropped(): number {
    return this.#dropped;
  }

  /** Hands a message to a waiting reader, or queues it within the bound. */
  push(message: M): void {
    if (this.#closed) return;
    const waiting = this.#waiting.shift();
    if (waiting !== undefined) {
      waiting({ value: message, done: false });
      return;
    }
    if (this.#queue.length - this.#head >= this.capacity) {
      if (this.overflow === 'end') {
        this.#overflowed = true;
        this.close();
        return;
      }
      this.#head++;
      this.#dropped++;
    }
    this.#queue.push(message);
  }

  next(): Promise<IteratorResult<M, undefined>> {
    if (this.#head < this.#queue.length) {
      const value = this.#queue[this.#head]!;
      this.#queue[this.#head++] = undefined as M;
      // Compacted once half read, so a long-lived queue does not grow with everything it ever held.
      if (this.#head === this.#queue.length) {
        this.#queue.length = 0;
        this.#head = 0;
      } else if (this.#head > 64 && this.#head * 2 > this.#queue.length) {
        this.#queue.splice(0, this.#head);
        this.#head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.#closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
    });
  }

  return(): Promise<IteratorResult<M, undefined>> {
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#queue.length = 0;
    this.#head = 0;
    this.detach();
    for (const waiting of this.#waiting.splice(0)) waiting({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

/** A subscription whose messages are handed to a callback as they arrive. */
export class CallbackSubscription<M> implements Subscription {
  #closed = false;

  constructor(
    readonly topic: string,
    readonly ready: Promise<void>,
    readonly listener: (message: M, topic: string) => void,
    private readonly detach: () => void,
  ) {}

  get closed(): boolean {
    return this.#closed;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.detach();
  }
}
