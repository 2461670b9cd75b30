import * as assert from 'uvu/assert';
import type { RateLimitHit, RateLimitStore } from '@kiln/rate-limit';
import { sleep } from './server.js';

/** A fresh store, initialised as `rateLimit` would, under a unique key space. */
export type StoreFactory = (windowMs: number, max: number) => RateLimitStore & { hit(key: string): RateLimitHit | Promise<RateLimitHit> };

let unique = 0;
const keyOf = (name: string) => `${name}-${process.pid}-${++unique}`;

/**
 * The sliding-window contract every built-in store keeps, with the real clock and short windows.
 * `tolerance` absorbs the store's own clock (Redis time) and its round trip.
 */
export function storeContract(suite: (name: string, body: () => void | Promise<void>) => void, name: string, create: StoreFactory, tolerance: number): void {
  suite(`${name}: counts 1..max, then max+1 without recording the refused request`, async () => {
    const store = create(1000, 3);
    const key = keyOf('count');
    const counts: number[] = [];
    for (let i = 0; i < 6; i++) counts.push(await store.increment(key));
    assert.equal(counts, [1, 2, 3, 4, 4, 4]);
  });

  suite(`${name}: resetTime is when the oldest counted request leaves the window`, async () => {
    const store = create(600, 2);
    const key = keyOf('reset');
    const before = Date.now();
    const first = await store.hit(key);
    const after = Date.now();
    assert.is(first.count, 1);
    assert.ok(first.resetTime >= before + 600 - tolerance && first.resetTime <= after + 600 + tolerance, `first ${first.resetTime - before}`);
    await sleep(200);
    const second = await store.hit(key);
    assert.is(second.count, 2);
    assert.ok(Math.abs(second.resetTime - first.resetTime) <= tolerance, 'still the first request\'s expiry');
    const refused = await store.hit(key);
    assert.is(refused.count, 3);
    assert.ok(Math.abs(refused.resetTime - first.resetTime) <= tolerance);
  });

  suite(`${name}: the window slides: each request expires on its own`, async () => {
    const store = create(600, 2);
    const key = keyOf('slide');
    assert.is(await store.increment(key), 1); // t≈0
    await sleep(300);
    assert.is(await store.increment(key), 2); // t≥300
    assert.is(await store.increment(key), 3);
    await sleep(390); // t≥690: the first has left, the second (until t≥900) has not
    assert.is(await store.increment(key), 2);
    assert.is(await store.increment(key), 3);
    await sleep(650); // everything has left
    assert.is(await store.increment(key), 1);
  });

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

  suite(`${name}: max 0 records nothing and reports now + windowMs`, async () => {
    const store = create(3000, 0);
    const key = keyOf('zero');
    const before = Date.now();
    const hit = await store.hit(key);
    assert.is(hit.count, 1);
    assert.ok(hit.resetTime >= before + 3000 - tolerance, 'no counted request: a whole window');
    assert.is((await store.hit(key)).count, 1);
  });

  suite(`${name}: a second rateLimit() on the same store is refused`, () => {
    const store = create(1000, 1);
    assert.throws(() => store.init!({ windowMs: 1000, max: 1 }), /already serves another rateLimit/);
  });
}
