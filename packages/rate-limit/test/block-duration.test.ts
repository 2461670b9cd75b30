// `blockDuration` over HTTP: a refused key stays refused until its block ends, in both stores and
// both algorithms, with exact `Retry-After` and draft-8 headers; the block is shared through Redis
// and nothing a client sends gets around it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, cors, Get } from '@kiln/core';
import {
  MemoryStore,
  rateLimit,
  RateLimitError,
  RedisStore,
  type RateLimitAlgorithm,
  type RateLimitOptions,
  type RateLimitStore,
} from '@kiln/rate-limit';
import type { Redis } from 'ioredis';
import { connectRedis } from './support/redis.js';
import { withClock, type Clock } from './support/clock.js';
import { get, start } from './support/server.js';

// aligned on the 10 s window, so both algorithms count from the start of one
const t0 = 1_767_225_600_000;
const windowMs = 10_000;
const redis = await connectRedis();
const client: Redis | undefined = 'client' in redis ? redis.client : undefined;
if ('skip' in redis) console.log(`block-duration: ${redis.skip}`);
let unique = 0;

type StoreKind = 'memory' | 'redis';
const storeKinds: StoreKind[] = client === undefined ? ['memory'] : ['memory', 'redis'];
const algorithms: RateLimitAlgorithm[] = ['sliding-log', 'sliding-window-counter'];

function storeOf(kind: StoreKind, clock: Clock, prefix = `kiln-rl-block:${process.pid}:${++unique}:`): RateLimitStore {
  if (kind === 'memory') return new MemoryStore();
  return new RedisStore({ client: client!, prefix, clock: () => clock.now, timeoutMs: 2000 });
}

@Controller('/')
class Api {
  @Get('/a') a() {
    return { ok: true };
  }
  @Get('/b') b() {
    return { ok: true };
  }
}

/** Status, `Retry-After` and the draft-8 fields of one GET. */
async function hit(base: string, path = '/a', headers?: Record<string, string>) {
  const r = await get(base, path, headers);
  return `${r.status} retry=${r.headers.get('retry-after') ?? '-'} ${r.headers.get('ratelimit') ?? '-'} | ${r.headers.get('ratelimit-policy') ?? '-'}`;
}

async function serve(options: RateLimitOptions) {
  return start({ controllers: [Api], middlewares: [cors(), rateLimit({ standardHeaders: 'draft-8', ...options })] });
}

for (const kind of storeKinds) {
  for (const algorithm of algorithms) {
    const label = `${kind}, ${algorithm}`;

    test(`${label}: a refused key stays refused for blockDuration, then passes with the window it has`, () =>
      withClock(t0, async (clock) => {
        const s = await serve({ max: 2, windowMs, algorithm, blockDuration: 60_000, store: storeOf(kind, clock) });
        const policy = '"2-in-10s";q=2;w=10';
        // the log frees its request 10 s on; the counter's estimate drops below 1 once the next window starts
        assert.is(await hit(s.base), `200 retry=- "2-in-10s";r=1;t=${algorithm === 'sliding-log' ? 10 : 20} | ${policy}`);
        clock.now += 1;
        await hit(s.base);
        // the refusal starts the block: 60 s, though the window would let a request in sooner
        assert.is(await hit(s.base), `429 retry=60 "2-in-10s";r=0;t=60 | ${policy}`);
        clock.now += 15_000;
        assert.is(await hit(s.base, '/b'), `429 retry=45 "2-in-10s";r=0;t=45 | ${policy}`, 'every route of the limiter');
        clock.now = t0 + 60_000;
        assert.is(await hit(s.base), `429 retry=1 "2-in-10s";r=0;t=1 | ${policy}`, 'the block ends 60 s after the refusal');
        clock.now = t0 + 60_001;
        // the windows are empty by now: a full quota (the block does not count the refused requests)
        assert.match(await hit(s.base), /^200 retry=- "2-in-10s";r=1;t=\d+ /);
        await s.close();
      }));

    test(`${label}: a block shorter than the window lasts until the refused request would have passed`, () =>
      withClock(t0, async (clock) => {
        const s = await serve({ max: 2, windowMs, algorithm, blockDuration: 1000, store: storeOf(kind, clock) });
        await hit(s.base);
        await hit(s.base);
        // the log frees its oldest request 10 s on; the counter's estimate leaves room at 15 s
        const wait = algorithm === 'sliding-log' ? 10 : 15;
        assert.is(await hit(s.base), `429 retry=${wait} "2-in-10s";r=0;t=${wait} | "2-in-10s";q=2;w=10`);
        clock.now += 2000; // past blockDuration: still refused, never earlier than the window says
        assert.is(await hit(s.base), `429 retry=${wait - 2} "2-in-10s";r=0;t=${wait - 2} | "2-in-10s";q=2;w=10`);
        clock.now = t0 + wait * 1000;
        assert.match(await hit(s.base), /^200 /);
        await s.close();
      }));

    test(`${label}: requests during a block neither count nor extend it, and nothing the client sends gets around it`, () =>
      withClock(t0, async (clock) => {
        const s = await serve({
          max: 1,
          windowMs,
          algorithm,
          blockDuration: 30_000,
          store: storeOf(kind, clock),
          standardHeaders: true,
          // a free request (cost 0) still meets the block
          cost: (req) => (new URL(req.url).searchParams.has('free') ? 0 : 1),
        });
        assert.is((await get(s.base, '/a')).status, 200);
        const refused = await get(s.base, '/a');
        assert.is(refused.status, 429);
        assert.is(refused.headers.get('retry-after'), '30');
        assert.is(refused.headers.get('ratelimit-remaining'), '0');
        assert.is(refused.headers.get('ratelimit-reset'), String(Math.ceil((t0 + 30_000) / 1000)));
        assert.equal(refused.json(), { error: 'Too Many Requests', message: 'Rate limit exceeded. Try again in 30 seconds.' });
        for (let i = 0; i < 5; i++) {
          clock.now += 1000;
          // a free request, another route, another origin and client identity (a loopback peer's
          // X-Forwarded-For and X-Real-IP are believed by default, as a proxy's: not sent here)
          const forged = await get(s.base, `/b?free&i=${i}`, {
            'user-agent': `bot/${i}`,
            'accept-language': 'xx',
            origin: 'http://evil.test',
          });
          assert.is(forged.status, 429);
          assert.is(forged.headers.get('retry-after'), String(30 - (i + 1)), 'the block is not extended');
          assert.is(forged.headers.get('access-control-allow-origin'), '*', 'CORS headers on the 429 too');
        }
        clock.now = t0 + 30_000;
        assert.is((await get(s.base, '/a')).status, 200);
        await s.close();
      }));
  }
}

if (client !== undefined) {
  for (const algorithm of algorithms) {
    test(`redis, ${algorithm}: the block is shared — a second process with the same prefix is refused until it ends`, () =>
      withClock(t0, async (clock) => {
        const prefix = `kiln-rl-block-shared:${process.pid}:${++unique}:`;
        const one = await serve({ max: 1, windowMs, algorithm, blockDuration: 40_000, store: storeOf('redis', clock, prefix) });
        const two = await serve({ max: 1, windowMs, algorithm, blockDuration: 40_000, store: storeOf('redis', clock, prefix) });
        assert.match(await hit(one.base), /^200 /);
        assert.is(await hit(one.base), '429 retry=40 "1-in-10s";r=0;t=40 | "1-in-10s";q=1;w=10');
        clock.now += 10_000;
        assert.is(await hit(two.base), '429 retry=30 "1-in-10s";r=0;t=30 | "1-in-10s";q=1;w=10');
        // the block is one Redis key in the limiter key's slot, expiring when the block ends
        const ttl = await client!.pttl(`${prefix}{127.0.0.1}:block`);
        assert.ok(ttl > 0 && ttl <= 40_000, `block key expires with the block (PTTL ${ttl})`);
        clock.now = t0 + 40_000;
        assert.match(await hit(two.base), /^200 /);
        await one.close();
        await two.close();
      }));
  }

  test('redis: resetKey lifts a block; resetAll deletes the blocks of its prefix too', () =>
    withClock(t0, async (clock) => {
      const prefix = `kiln-rl-block-reset:${process.pid}:${++unique}:`;
      const limiter = rateLimit({
        max: 1,
        windowMs,
        blockDuration: 60_000,
        store: storeOf('redis', clock, prefix),
        keyGenerator: (req) => new URL(req.url).pathname,
      });
      const s = await start({ controllers: [Api], middlewares: [limiter] });
      for (const path of ['/a', '/a', '/b', '/b']) await get(s.base, path);
      assert.is((await get(s.base, '/a')).status, 429);
      await limiter.resetKey('/a');
      assert.is((await get(s.base, '/a')).status, 200);
      assert.is((await get(s.base, '/b')).status, 429);
      assert.is((await client!.keys(`${prefix}*`)).length, 3, 'two counters and the block of /b');
      await limiter.resetAll();
      assert.equal(await client!.keys(`${prefix}*`), []);
      assert.is((await get(s.base, '/b')).status, 200);
      await s.close();
    }));
}

test('memory: a blocked key is not dropped as idle nor evicted while its block lasts', () =>
  withClock(t0, async (clock) => {
    const store = new MemoryStore({ maxKeys: 10, cleanupIntervalMs: 1 });
    const limiter = rateLimit({
      max: 1,
      windowMs,
      blockDuration: 120_000,
      store,
      keyGenerator: (req) => new URL(req.url).searchParams.get('k') ?? '',
    });
    const s = await start({ controllers: [Api], middlewares: [limiter] });
    await get(s.base, '/a?k=blocked');
    assert.is((await get(s.base, '/a?k=blocked')).status, 429);
    // two windows later, a flood of new keys: the idle sweep and the eviction both run
    clock.now += 2 * windowMs;
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (let i = 0; i < 30; i++) await get(s.base, `/a?k=flood${i}`);
    const r = await get(s.base, '/a?k=blocked');
    assert.is(r.status, 429);
    assert.is(r.headers.get('retry-after'), '100');
    await s.close();
    store.close();
  }));

test('blockDuration must be a whole number of ms ≥ 0 (KILN210) and needs a store with init() and hit() (KILN211)', () => {
  for (const blockDuration of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '60000', null]) {
    try {
      rateLimit({ blockDuration: blockDuration as number });
      assert.unreachable(`${String(blockDuration)} accepted`);
    } catch (error) {
      assert.instance(error, RateLimitError);
      assert.is((error as RateLimitError).code, 'KILN210', String(blockDuration));
      assert.match((error as Error).message, /^rateLimit: blockDuration must be a whole number of milliseconds \(0 or more\), got /);
    }
  }
  const incrementOnly: RateLimitStore = { increment: () => 1, reset: () => {} };
  const noHit: RateLimitStore = { increment: () => 1, reset: () => {}, init: () => {} };
  for (const store of [incrementOnly, noHit]) {
    try {
      rateLimit({ blockDuration: 1000, store });
      assert.unreachable('a store without init/hit accepted');
    } catch (error) {
      assert.is((error as RateLimitError).code, 'KILN211');
    }
  }
  // 0 is "no block": any store will do
  rateLimit({ blockDuration: 0, store: incrementOnly });
});

test.after(() => {
  client?.disconnect();
});

test.run();
