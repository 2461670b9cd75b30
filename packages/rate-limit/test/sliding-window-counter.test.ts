// The sliding-window counter against the exact sliding log on recorded traces (deterministic
// clock): the error bound the guide derives holds request by request, and every reset time the
// counter reports is exact for its own estimate.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MemoryStore, type RateLimitAlgorithm, type RateLimitHit } from '@kiln/rate-limit';
import { withClock } from './support/clock.js';
import { burstAtWindowEndTrace, steadyTrace, type Trace } from './support/trace.js';

// the counter's arithmetic is internal (not in the exports map): load it beside the package's entry point
const entry = createRequire(import.meta.url).resolve('@kiln/rate-limit');
const counter = (await import(pathToFileURL(join(dirname(entry), 'sliding-window-counter.js')).href)) as {
  rollWindow(counts: Counts, now: number, windowMs: number): number;
};
interface Counts {
  window: number;
  previous: number;
  current: number;
}

const windowMs = 10_000;
const max = 50;
const t0 = 1_767_225_600_000; // a multiple of windowMs: window boundaries fall on round times

async function replay(trace: Trace, algorithm: RateLimitAlgorithm): Promise<RateLimitHit[]> {
  const hits: RateLimitHit[] = [];
  await withClock(t0, (clock) => {
    const store = new MemoryStore();
    store.init({ windowMs, max, algorithm });
    for (const time of trace.times) {
      clock.now = time;
      hits.push(store.hit('client'));
    }
    store.close();
  });
  return hits;
}

/** Counted requests in (t - windowMs, t]. */
function inSlidingWindow(counted: number[], t: number): number {
  let n = 0;
  for (const time of counted) if (time > t - windowMs && time <= t) n++;
  return n;
}

/** Whether the counter's estimate, with no new request, is at most `target` at `t`: previous × (W − e) + current × W ≤ target × W. */
function estimateAtMost(counts: Counts, t: number, target: number): boolean {
  const copy = { ...counts };
  const elapsed = counter.rollWindow(copy, t, windowMs);
  return copy.previous * (windowMs - elapsed) + copy.current * windowMs <= target * windowMs;
}

const traces = [
  steadyTrace('steady at half the limit', 1, t0, windowMs, max / 2, 30),
  steadyTrace('steady at 1.5 times the limit', 2, t0, windowMs, max * 1.5, 30),
  steadyTrace('steady at 4 times the limit', 3, t0, windowMs, max * 4, 30),
  burstAtWindowEndTrace('bursts at the end of each window (worst case)', 4, t0, windowMs, max, 30),
];

for (const trace of traces) {
  test(`counter vs log, ${trace.name}: the derived bound holds at every request, each reset time is exact`, async () => {
    const log = await replay(trace, 'sliding-log');
    const estimate = await replay(trace, 'sliding-window-counter');
    const countedLog = trace.times.filter((_, i) => log[i]!.count <= max);
    const countedCounter = trace.times.filter((_, i) => estimate[i]!.count <= max);

    // the counter's state, rebuilt from its own decisions, to check what it reports
    const counts: Counts = { window: 0, previous: 0, current: 0 };
    let worstExcess = 0;
    let disagreements = 0;
    for (let i = 0; i < trace.times.length; i++) {
      const t = trace.times[i]!;
      const hit = estimate[i]!;
      const counted = hit.count <= max;
      if (counted !== log[i]!.count <= max) disagreements++;
      const elapsed = counter.rollWindow(counts, t, windowMs);
      if (counted) counts.current++;
      // never more than max in an aligned window
      assert.ok(counts.current <= max, `aligned window over max at ${t - t0}`);
      if (counted) {
        // in the sliding window ending here: at most max + previous × elapsed / W (< 2 × max)
        const sliding = inSlidingWindow(countedCounter, t);
        const bound = max + (counts.previous * elapsed) / windowMs;
        assert.ok(sliding <= bound, `${sliding} counted in the window ending at +${t - t0} ms, bound ${bound}`);
        worstExcess = Math.max(worstExcess, sliding - max);
        // the exact log itself never passes max
        assert.ok(inSlidingWindow(countedLog, t) <= max);
        // resetTime: the first ms at which the estimate has fallen by one slot
        assert.ok(estimateAtMost(counts, hit.resetTime, hit.count - 1), `slot not free at resetTime (+${hit.resetTime - t0})`);
        if (hit.resetTime - 1 > t) assert.ok(!estimateAtMost(counts, hit.resetTime - 1, hit.count - 1), 'a slot was free before resetTime');
      } else {
        // refused: a request at resetTime passes, one a millisecond before does not
        assert.is(hit.count, max + 1);
        assert.ok(estimateAtMost(counts, hit.resetTime, max - 1), `still refused at resetTime (+${hit.resetTime - t0})`);
        assert.ok(!estimateAtMost(counts, hit.resetTime - 1, max - 1), 'would have passed before resetTime');
      }
    }
    const share = (n: number) => `${((n / trace.times.length) * 100).toFixed(2)}%`;
    console.log(
      `${trace.name}: ${trace.times.length} requests; log counted ${countedLog.length}, counter ${countedCounter.length}; ` +
        `decisions differ on ${disagreements} (${share(disagreements)}); worst sliding-window excess over max ${worstExcess}`,
    );
    if (trace.name.startsWith('steady at half')) assert.is(disagreements, 0, 'under the limit both count everything');
    else assert.ok(worstExcess < max, 'fewer than 2 × max in any sliding window');
  });
}

test('counter: memory per key does not grow with max (two numbers and a window index)', () =>
  withClock(t0, () => {
    const small = new MemoryStore();
    small.init({ windowMs, max: 10, algorithm: 'sliding-window-counter' });
    const large = new MemoryStore();
    large.init({ windowMs, max: 1_000_000, algorithm: 'sliding-window-counter' });
    for (let i = 0; i < 5000; i++) {
      small.hit('k');
      large.hit('k');
    }
    assert.is(small.bytes, large.bytes);
    assert.ok(large.bytes < 300, `${large.bytes} bytes for one key that counted 5000 requests`);
    const log = new MemoryStore();
    log.init({ windowMs, max: 1_000_000 });
    for (let i = 0; i < 5000; i++) log.hit('k');
    assert.ok(log.bytes > 5000 * 8, 'the sliding log holds every timestamp');
  }));

test.run();
