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
