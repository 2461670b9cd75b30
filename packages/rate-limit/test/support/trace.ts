/**
 * Recorded request traces for comparing the sliding-window counter with the exact sliding log:
 * arrival times (ms) generated from a fixed seed, so every run replays the same requests.
 */

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
export function seededRandom(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Trace {
  name: string;
  /** Arrival times in ms, ascending. */
  times: number[];
}

/** Poisson arrivals at `perWindow` requests per window on average, for `windows` windows from `start`. */
export function steadyTrace(name: string, seed: number, start: number, windowMs: number, perWindow: number, windows: number): Trace {
  const random = seededRandom(seed);
  const times: number[] = [];
  let t = start;
  const end = start + windows * windowMs;
  for (;;) {
    t += Math.max(1, Math.round((-Math.log(1 - random()) * windowMs) / perWindow));
    if (t >= end) return { name, times };
    times.push(t);
  }
}

/**
 * The counter's worst case: in each window, a burst of `burst` requests in its last 2% (the
 * estimate then spreads them over the whole window), plus a few at random times.
 */
export function burstAtWindowEndTrace(name: string, seed: number, start: number, windowMs: number, burst: number, windows: number): Trace {
  const random = seededRandom(seed);
  const times: number[] = [];
  for (let w = 0; w < windows; w++) {
    const windowStart = start + w * windowMs;
    for (let i = 0; i < burst / 5; i++) times.push(windowStart + Math.floor(random() * windowMs * 0.98));
    for (let i = 0; i < burst; i++) times.push(windowStart + Math.floor(windowMs * (0.98 + random() * 0.02)));
  }
  return { name, times: times.sort((a, b) => a - b) };
}
