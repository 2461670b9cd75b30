import * as assert from 'uvu/assert';
import type { RateLimitHit, RateLimitStore } from '@kiln/rate-limit';
import { withClock } from './clock.js';

/** A fresh store, initialised as `rateLimit` would, under a unique key space, reading time from `Date.now`. */
export type StoreFactory = (windowMs: number, max: number) => RateLimitStore & { hit(key: string): RateLimitHit | Promise<RateLimitHit> };

let unique = 0;
const keyOf = (name: string) => `${name}-${process.pid}-${++unique}`;
const t0 = 1_767_225_600_000;

/**
 * The sliding-window contract every built-in store keeps, on a clock the test moves (`Date.now`
 * replaced): exact values, no waiting. A RedisStore under test takes its time from `Date.now`
 * too (its `clock` option) instead of the Redis server's TIME.
 */
export function storeContract(suite: (name: string, body: () => void | Promise<void>) => void, name: string, create: StoreFactory): void {
  suite(`${name}: counts 1..max, then max+1 without recording the refused request`, async () => {
    const store = create(1000, 3);
    const key = keyOf('count');
    const counts: number[] = [];
    for (let i = 0; i < 6; i++) counts.push(await store.increment(key));
    assert.equal(counts, [1, 2, 3, 4, 4, 4]);
  });

  suite(`${name}: resetTime is when the oldest counted request leaves the window`, () =>
    withClock(t0, async (clock) => {
      const store = create(600, 2);
      const key = keyOf('reset');
      assert.equal(await store.hit(key), { count: 1, resetTime: t0 + 600 });
      clock.now += 200;
      assert.equal(await store.hit(key), { count: 2, resetTime: t0 + 600 }, "still the first request's expiry");
      assert.equal(await store.hit(key), { count: 3, resetTime: t0 + 600 });
    }));

  suite(`${name}: the window slides: each request expires on its own, exactly windowMs after it`, () =>
    withClock(t0, async (clock) => {
      const store = create(600, 2);
      const key = keyOf('slide');
      assert.is(await store.increment(key), 1); // t0
      clock.now += 300;
      assert.is(await store.increment(key), 2); // t0 + 300
      assert.is(await store.increment(key), 3);
      clock.now += 299; // t0 + 599: the first is still in
      assert.is(await store.increment(key), 3);
      clock.now += 1; // t0 + 600: the first has left, the second (until t0 + 900) has not
      assert.equal(await store.hit(key), { count: 2, resetTime: t0 + 900 });
      assert.is(await store.increment(key), 3);
      clock.now += 600; // everything has left
      assert.is(await store.increment(key), 1);
    }));

  suite(`${name}: reset forgets a key; keys are independent`, async () => {
    const store = create(5000, 1);
    const a = keyOf('a');
    const b = keyOf('b');
    assert.is(await store.increment(a), 1);
    assert.is(await store.increment(a), 2);
    assert.is(await store.increment(b), 1);
    await store.reset(a);
    assert.is(await store.increment(a), 1);
    assert.is(await store.increment(b), 2);
  });

  suite(`${name}: max 0 records nothing and reports now + windowMs`, () =>
    withClock(t0, async () => {
      const store = create(3000, 0);
      const key = keyOf('zero');
      assert.equal(await store.hit(key), { count: 1, resetTime: t0 + 3000 });
      assert.is((await store.hit(key)).count, 1);
    }));

  suite(`${name}: a second rateLimit() on the same store is refused`, () => {
    const store = create(1000, 1);
    assert.throws(() => store.init!({ windowMs: 1000, max: 1 }), /already serves another rateLimit/);
  });
}

/**
 * The `sliding-window-counter` contract both built-in stores keep, on a clock the test moves.
 * Windows are aligned on multiples of windowMs (t0 is a multiple of 1000); every value below is
 * worked out by hand from `previous × (windowMs − elapsed) / windowMs + current`.
 */
export function counterContract(suite: (name: string, body: () => void | Promise<void>) => void, name: string, create: StoreFactory): void {
  suite(`${name} (counter): counts 1..max, refuses max+1 unrecorded, and says when each slot frees`, () =>
    withClock(t0, async () => {
      const store = create(1000, 4);
      const key = keyOf('counter');
      // k requests at the window's start weigh until the next window has covered (k - 1)/k of them
      assert.equal(await store.hit(key), { count: 1, resetTime: t0 + 2000 });
      assert.equal(await store.hit(key), { count: 2, resetTime: t0 + 1500 });
      assert.equal(await store.hit(key), { count: 3, resetTime: t0 + 1334 });
      assert.equal(await store.hit(key), { count: 4, resetTime: t0 + 1250 });
      assert.equal(await store.hit(key), { count: 5, resetTime: t0 + 1250 }, 'refused: passes again when 4 × (1 − f) + 1 ≤ 4');
      assert.equal(await store.hit(key), { count: 5, resetTime: t0 + 1250 }, 'the refused one was not recorded');
    }));

  suite(`${name} (counter): Retry-After is exact: refused 1 ms before it, counted at it, weighted by the previous window`, () =>
    withClock(t0, async (clock) => {
      const store = create(1000, 4);
      const key = keyOf('weighted');
      for (let i = 0; i < 4; i++) await store.hit(key);
      clock.now = t0 + 1249; // 4 × 751/1000 = 3.004, + 1 > 4
      assert.equal(await store.hit(key), { count: 5, resetTime: t0 + 1250 });
      clock.now = t0 + 1250; // 4 × 750/1000 = 3, + 1 = 4
      assert.equal(await store.hit(key), { count: 4, resetTime: t0 + 1500 }, 'the next slot frees when 4 × (1 − f) + 1 ≤ 3');
      clock.now = t0 + 1500;
      assert.equal(await store.hit(key), { count: 4, resetTime: t0 + 1750 });
      clock.now = t0 + 1600; // 4 × 400/1000 = 1.6, + 2 + 1 = 4.6 > 4
      assert.equal(await store.hit(key), { count: 5, resetTime: t0 + 1750 });
      clock.now = t0 + 1750; // 4 × 250/1000 = 1, + 2 + 1 = 4
      assert.equal(await store.hit(key), { count: 4, resetTime: t0 + 2000 });
      clock.now = t0 + 1800;
      assert.equal((await store.hit(key)).count, 5);
    }));

  suite(`${name} (counter): a whole idle window forgets a key; one idle window keeps it as the previous count`, () =>
    withClock(t0, async (clock) => {
      const store = create(1000, 2);
      const key = keyOf('idle');
      await store.hit(key);
      await store.hit(key);
      clock.now = t0 + 1000; // 2 × 1 + 0: full
      assert.is((await store.hit(key)).count, 3);
      clock.now = t0 + 1500; // 2 × 0.5 + 0 + 1 = 2
      assert.is((await store.hit(key)).count, 2);
      clock.now = t0 + 3000; // two windows later: nothing left
      assert.equal(await store.hit(key), { count: 1, resetTime: t0 + 5000 });
    }));

  suite(`${name} (counter): max 0 counts nothing and reports now + windowMs`, () =>
    withClock(t0 + 300, async () => {
      const store = create(3000, 0);
      assert.equal(await store.hit(keyOf('zero')), { count: 1, resetTime: t0 + 3300 });
    }));
}
