/** One call awaited from Redis: when it is given up, and what to do then (undefined once settled). */
export interface AwaitedCall {
  readonly expiresAt: number;
  onExpired: (() => void) | undefined;
}

/** Node and Bun return a timer object with `unref`; Deno returns a number and unrefs it with `Deno.unrefTimer`. */
function unref(timer: unknown): void {
  if (typeof timer === 'object' && timer !== null) (timer as { unref?: () => void }).unref?.();
  else (globalThis as { Deno?: { unrefTimer?: (id: unknown) => void } }).Deno?.unrefTimer?.(timer);
}

/**
 * The timeouts of every Redis call in flight, on one timer. A timer per call (a `setTimeout`, its
 * closure and a promise to race) was most of RedisStore's own cost per request; here a call costs
 * one small object in a queue. Every call waits the same `timeoutMs`, so the queue is in deadline
 * order: the timer is armed for the oldest call only, and when it fires it expires what is due
 * and re-arms for the next. Measured on the monotonic clock, so a test's fake `Date.now` or a
 * wall-clock step never delays or hastens a timeout.
 */
export class CallDeadlines {
  readonly #timeoutMs: number;
  #queue: AwaitedCall[] = [];
  #head = 0;
  #armed = false;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /** Starts waiting for a call; `onExpired` runs if it is not finished within `timeoutMs`. */
  start(onExpired: () => void): AwaitedCall {
    const call: AwaitedCall = { expiresAt: performance.now() + this.#timeoutMs, onExpired };
    this.#queue.push(call);
    if (!this.#armed) this.#arm(this.#timeoutMs);
    return call;
  }

  /** Marks the call answered. False when it had already expired (its answer is no longer awaited). */
  finish(call: AwaitedCall): boolean {
    if (call.onExpired === undefined) return false;
    call.onExpired = undefined;
    return true;
  }

  #arm(delay: number): void {
    this.#armed = true;
    unref(setTimeout(this.#expire, Math.max(1, Math.ceil(delay))));
  }

  readonly #expire = (): void => {
    this.#armed = false;
    const now = performance.now();
    const queue = this.#queue;
    while (this.#head < queue.length) {
      const call = queue[this.#head]!;
      if (call.onExpired !== undefined && call.expiresAt > now) break;
      this.#head++;
      const expired = call.onExpired;
      call.onExpired = undefined;
      expired?.();
    }
    if (this.#head === queue.length) {
      queue.length = 0;
      this.#head = 0;
      return;
    }
    // drop the settled front once it is most of the array: amortised O(1) per call
    if (this.#head > 1024 && this.#head * 2 > queue.length) {
      queue.splice(0, this.#head);
      this.#head = 0;
    }
    // (an onExpired that started a call has armed the timer already)
    if (!this.#armed) this.#arm(queue[this.#head]!.expiresAt - now);
  };
}
