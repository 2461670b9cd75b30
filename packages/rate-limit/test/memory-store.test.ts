import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import { MemoryStore } from '@kiln/rate-limit';
import { storeContract } from './support/store-contract.js';
import { withClock } from './support/clock.js';

function memoryStore(windowMs: number, max: number, options?: ConstructorParameters<typeof MemoryStore>[0]) {
  const store = new MemoryStore(options);
  store.init({ windowMs, max });
  return store;
}

storeContract(test, 'MemoryStore', (windowMs, max) => memoryStore(windowMs, max));

test('increment is synchronous: it returns a number, never a promise', () => {
  const store = memoryStore(1000, 5);
  const count = store.increment('sync');
  assert.is(typeof count, 'number');
  assert.is(count, 1);
});

test('a request exactly windowMs old has left the window', async () => {
  await withClock(1_700_000_000_000, (clock) => {
    const store = memoryStore(1000, 1);
    assert.is(store.increment('k'), 1);
    clock.now += 999;
    assert.is(store.increment('k'), 2);
    clock.now += 1;
    assert.equal(store.hit('k'), { count: 1, resetTime: clock.now + 1000 });
  });
});

test('LRU: past maxKeys the least recently used 20% are evicted; touching a key keeps it', async () => {
  await withClock(1_700_000_000_000, (clock) => {
    const store = memoryStore(60_000, 100, { maxKeys: 10 });
    for (let i = 0; i < 10; i++) {
      store.increment(`k${i}`);
      clock.now += 1;
    }
    store.increment('k0'); // k0 becomes the most recently used
    store.increment('k10'); // full: evicts ceil(10 * 20%) = 2 keys, the least recently used k1 and k2
    assert.is(store.size, 9);
    assert.is(store.increment('k0'), 3, 'k0 kept its count');
    assert.is(store.increment('k3'), 2, 'k3 kept its count');
    assert.is(store.increment('k1'), 1, 'k1 was evicted');
    assert.is(store.size, 10);
  });
});

test('full: keys idle for a whole window are dropped before any live key is evicted', async () => {
  await withClock(1_700_000_000_000, (clock) => {
    const store = memoryStore(1000, 100, { maxKeys: 10 });
    for (let i = 0; i < 5; i++) store.increment(`old${i}`);
    clock.now += 1000;
    for (let i = 0; i < 5; i++) store.increment(`live${i}`);
    store.increment('new');
    assert.is(store.size, 6, 'the 5 idle keys went, no live key did');
    for (let i = 0; i < 5; i++) assert.is(store.increment(`live${i}`), 2);
  });
});

test('time-based cleanup drops idle keys on its interval', () =>
  withClock(1_700_000_000_000, async (clock) => {
    const store = memoryStore(60_000, 100, { cleanupIntervalMs: 20 });
    for (let i = 0; i < 100; i++) store.increment(`t${i}`);
    clock.now += 30_000;
    store.increment('live');
    clock.now += 30_000; // the 100 have been idle a whole window, 'live' has not
    // A timer due after the 20 ms interval: the interval runs first, whatever the machine's load.
    await new Promise((resolve) => setTimeout(resolve, 25));
    assert.is(store.size, 1);
    assert.is(store.increment('live'), 2);
    store.close();
  }));

test('the cleanup timer never keeps the process alive', () => {
  const started = Date.now();
  const child = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "const { MemoryStore } = await import('@kiln/rate-limit'); const s = new MemoryStore(); s.increment('a'); console.log('made', s.size);",
    ],
    { encoding: 'utf8', timeout: 10_000 },
  );
  assert.is(child.status, 0, child.stderr);
  assert.is(child.stdout.trim(), 'made 1');
  assert.ok(Date.now() - started < 5000, 'exited without waiting for the 60 s timer');
});

test('the sliding log drops expired timestamps by moving its head, compacting in place', async () => {
  // SlidingLog is internal (not in the exports map): load it beside the package's entry point.
  const entry = createRequire(import.meta.url).resolve('@kiln/rate-limit');
  const { SlidingLog } = await import(pathToFileURL(join(dirname(entry), 'sliding-log.js')).href);
  const log = new SlidingLog();
  const times = log.times;
  for (let t = 1; t <= 100; t++) times.push(t);
  assert.is(log.expire(10), 90);
  assert.is(log.head, 10);
  assert.is(log.oldest(), 11);
  assert.is(log.times, times, 'same array');
  assert.is(times.length, 100, 'not copied nor shrunk yet');
  assert.is(log.expire(60), 40);
  assert.equal([log.head, times.length, log.oldest()], [0, 40, 61], 'compacted in place once most of it expired');
  assert.is(log.times, times);
  assert.is(log.expire(100), 0);
  assert.equal([log.head, times.length], [0, 0]);
  assert.is(log.times, times);
});

function heapAfterGc(gc: () => void): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

test('key flood: 100,000 distinct keys, at most 10,000 held, heap bounded', () => {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const store = memoryStore(60_000, 100);
  const base = heapAfterGc(gc);
  let largest = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < 100_000; i++) {
    store.increment(`198.51.${i >> 8}.${i & 255}:${i}`);
    if (store.size > largest) largest = store.size;
  }
  const floodMs = Number(process.hrtime.bigint() - started) / 1e6;
  const after100k = heapAfterGc(gc);
  for (let i = 100_000; i < 1_000_000; i++) store.increment(`k${i}`);
  const after1m = heapAfterGc(gc);
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(2);
  console.log(
    `key flood: 100,000 keys in ${floodMs.toFixed(0)} ms, largest size ${largest}, final size ${store.size}; ` +
      `heap ${mb(base)} MB before, ${mb(after100k)} MB after 100,000 keys (+${mb(after100k - base)}), ${mb(after1m)} MB after 1,000,000 keys (+${mb(after1m - base)})`,
  );
  assert.ok(largest <= 10_000, `largest ${largest}`);
  assert.ok(store.size <= 10_000);
  assert.ok(after100k - base < 16 * 1024 * 1024, 'a full store of 10,000 keys stays under 16 MB');
  assert.ok(after1m - after100k < 4 * 1024 * 1024, 'ten times more keys do not grow the heap');
  store.close();
});

test.run();
