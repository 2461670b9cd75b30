// A fake clock for the timers a test names by their delay (a shutdownTimeout, a Redis timeoutMs):
// a setTimeout with one of those delays is held until the test advances the clock past it, and
// performance.now() and Date.now() move forward by what the test advanced. Every other timer runs
// on the real clock (the HTTP stack's own), so a test waits on events, never on the wall clock.

interface HeldTimer {
  readonly due: number;
  readonly run: () => void;
  readonly handle: ReturnType<typeof setTimeout>;
}

export interface HeldTimers {
  /** Resolves once at least `count` held timers are waiting. */
  waiting(count?: number): Promise<void>;
  /** Moves the clock forward by `ms` and runs the held timers due by then, oldest first; returns how many ran. */
  advance(ms: number): number;
  /** Puts the real setTimeout, clearTimeout and clocks back. */
  restore(): void;
}

export function holdTimers(...delays: number[]): HeldTimers {
  const real = { setTimeout, clearTimeout, performanceNow: performance.now.bind(performance), dateNow: Date.now };
  let offset = 0;
  const held = new Map<unknown, HeldTimer>();
  const waiters: { count: number; resolve: () => void }[] = [];
  const wake = () => {
    for (const waiter of [...waiters]) {
      if (held.size < waiter.count) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };

  globalThis.setTimeout = ((callback: (...args: unknown[]) => void, delay?: number, ...args: unknown[]) => {
    if (delay === undefined || !delays.includes(delay)) return real.setTimeout(callback, delay, ...args);
    // A real handle that never fires on its own: unref() and clearTimeout work on it as on any timer.
    const handle = real.setTimeout(() => {}, 2 ** 31 - 1);
    held.set(handle, { due: offset + delay, run: () => callback(...args), handle });
    wake();
    return handle;
  }) as typeof setTimeout;
  globalThis.clearTimeout = ((handle?: Parameters<typeof clearTimeout>[0]) => {
    held.delete(handle);
    real.clearTimeout(handle);
  }) as typeof clearTimeout;
  performance.now = () => real.performanceNow() + offset;
  Date.now = () => real.dateNow() + offset;

  return {
    waiting(count = 1) {
      return new Promise<void>((resolve) => {
        waiters.push({ count, resolve });
        wake();
      });
    },
    advance(ms) {
      offset += ms;
      const due = [...held.values()].filter((timer) => timer.due <= offset).sort((a, b) => a.due - b.due);
      for (const timer of due) {
        held.delete(timer.handle);
        real.clearTimeout(timer.handle);
        timer.run();
      }
      return due.length;
    },
    restore() {
      for (const timer of held.values()) real.clearTimeout(timer.handle);
      held.clear();
      globalThis.setTimeout = real.setTimeout;
      globalThis.clearTimeout = real.clearTimeout;
      performance.now = real.performanceNow;
      Date.now = real.dateNow;
    },
  };
}

/** A promise with its resolve: an event a test waits for. */
export function event<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** One turn of the event loop (setImmediate): the promise chains already started have run. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
