/** A clock a test moves by hand. */
export interface Clock {
  now: number;
}

/**
 * Runs `body` with `Date.now` reading a clock that only the test moves: the sliding window, the
 * reset times and the headers then have exact values and no test waits. Timers still run on real
 * time (nothing here relies on them).
 */
export async function withClock(start: number, body: (clock: Clock) => void | Promise<void>): Promise<void> {
  const realNow = Date.now;
  const clock: Clock = { now: start };
  Date.now = () => clock.now;
  try {
    await body(clock);
  } finally {
    Date.now = realNow;
  }
}
