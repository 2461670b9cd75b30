// RedisStore's block cache over HTTP: a key Redis refused is answered 429 in this process, with the
// right headers and no Redis command (counted by INFO commandstats on a private redis-server), until
// its block or its window's refusal ends; other keys and other processes keep counting in Redis.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, cors, Get, type KilnRequest, Req } from '@kiln/core';
import {
  rateLimit,
  RateLimitError,
  RedisStore,
  type RateLimitAlgorithm,
  type RateLimitOptions,
  type RedisStoreOptions,
} from '@kiln/rate-limit';
import { Redis } from 'ioredis';
import { commandCalls, privateRedisForSuite } from './support/private-redis.js';
import { withClock } from './support/clock.js';
import { get, start } from './support/server.js';

const t0 = 1_767_225_600_000;
const windowMs = 10_000;
const { redisTest, server, client } = privateRedisForSuite('block-cache');
const algorithms: RateLimitAlgorithm[] = ['sliding-log', 'sliding-window-counter'];

@Controller('/')
class Api {
  @Get('/a') a() {
    return { ok: true };
  }
}

/** Script calls (EVALSHA + EVAL) Redis has run since the last RESETSTAT. */
async function scriptCalls(): Promise<number> {
  const calls = await commandCalls(server().admin);
  return (calls.evalsha ?? 0) + (calls.eval ?? 0);
}

let unique = 0;
function store(prefix: string, blockCache?: RedisStoreOptions['blockCache']) {
  return new RedisStore({ client: client(), prefix, clock: () => Date.now(), timeoutMs: 2000, blockCache });
}

async function serve(options: RateLimitOptions) {
  return start({ controllers: [Api], middlewares: [cors(), rateLimit({ standardHeaders: 'draft-8', ...options })] });
}

/** Status, `Retry-After` and the draft-8 `RateLimit` field. */
async function hit(base: string, key = 'k') {
  const r = await get(base, '/a', { 'x-key': key });
  return `${r.status} retry=${r.headers.get('retry-after') ?? '-'} ${r.headers.get('ratelimit') ?? '-'}`;
}
const byHeader = { keyGenerator: (req: { headers: Headers }) => req.headers.get('x-key') ?? '' };

for (const algorithm of algorithms) {
  redisTest(`${algorithm}, blockDuration: a blocked key answers 429 without a Redis round trip until its block ends`, () =>
    withClock(t0, async (clock) => {
      const s = await serve({ max: 2, windowMs, algorithm, blockDuration: 60_000, store: store(`bc:${++unique}:`), ...byHeader });
      await hit(s.base);
      await hit(s.base);
      await server().admin.config('RESETSTAT');
      assert.is(await hit(s.base), '429 retry=60 "2-in-10s";r=0;t=60');
      assert.is(await scriptCalls(), 1, 'the refusal that started the block asked Redis');
      const replies: string[] = [];
      for (let i = 0; i < 20; i++) {
        clock.now += 2000;
        replies.push(await hit(s.base));
      }
      assert.is(await scriptCalls(), 1, '20 requests of the blocked key: no script call');
      assert.equal(replies.slice(0, 3), [
        '429 retry=58 "2-in-10s";r=0;t=58',
        '429 retry=56 "2-in-10s";r=0;t=56',
        '429 retry=54 "2-in-10s";r=0;t=54',
      ]);
      assert.is(replies[19], '429 retry=20 "2-in-10s";r=0;t=20');
      // another key of the same process still counts in Redis
      assert.match(await hit(s.base, 'other'), /^200 /);
      assert.is(await scriptCalls(), 2);
      clock.now = t0 + 60_000;
      assert.match(await hit(s.base), /^200 /, 'the block over: Redis is asked again');
      assert.is(await scriptCalls(), 3);
      await s.close();
    }),
  );

  redisTest(`${algorithm}, no blockDuration: a refused key is answered locally until its window lets it in`, () =>
    withClock(t0, async (clock) => {
      const s = await serve({ max: 2, windowMs, algorithm, store: store(`bc:${++unique}:`), ...byHeader });
      await hit(s.base);
      await hit(s.base);
      await server().admin.config('RESETSTAT');
      const wait = algorithm === 'sliding-log' ? 10 : 15;
      assert.is(await hit(s.base), `429 retry=${wait} "2-in-10s";r=0;t=${wait}`);
      clock.now += 3000;
      assert.is(await hit(s.base), `429 retry=${wait - 3} "2-in-10s";r=0;t=${wait - 3}`);
      assert.is(await scriptCalls(), 1);
      clock.now = t0 + wait * 1000;
      assert.match(await hit(s.base), /^200 /);
      assert.is(await scriptCalls(), 2);
      await s.close();
    }),
  );
}

redisTest('across processes: another process with the same prefix still counts in Redis and meets the shared block', () =>
  withClock(t0, async (clock) => {
    const prefix = `bc:${++unique}:`;
    const one = await serve({ max: 1, windowMs, blockDuration: 30_000, store: store(prefix), ...byHeader });
    const otherClient = new Redis(server().url);
    const two = await start({
      controllers: [Api],
      middlewares: [
        rateLimit({
          max: 1,
          windowMs,
          blockDuration: 30_000,
          standardHeaders: 'draft-8',
          store: new RedisStore({ client: otherClient, prefix, clock: () => Date.now() }),
          ...byHeader,
        }),
      ],
    });
    try {
      await hit(one.base);
      assert.is(await hit(one.base), '429 retry=30 "1-in-10s";r=0;t=30');
      await server().admin.config('RESETSTAT');
      clock.now += 5000;
      for (let i = 0; i < 5; i++) assert.is(await hit(one.base), '429 retry=25 "1-in-10s";r=0;t=25');
      assert.is(await scriptCalls(), 0, 'the first process answers from its cache');
      // the second process has no cache entry: it asks Redis, which holds the block
      assert.is(await hit(two.base), '429 retry=25 "1-in-10s";r=0;t=25');
      assert.is(await scriptCalls(), 1);
      // a fresh key counted by the second process is seen by the first (through Redis)
      assert.match(await hit(two.base, 'fresh'), /^200 /);
      assert.is(await hit(one.base, 'fresh'), '429 retry=30 "1-in-10s";r=0;t=30');
      assert.is(await scriptCalls(), 3);
    } finally {
      await one.close();
      await two.close();
      otherClient.disconnect();
    }
  }),
);

redisTest('a refusal answers requests of its own cost only; resetKey clears the cache; blockCache: false asks every time', () =>
  withClock(t0, async () => {
    const limiter = rateLimit({
      max: 3,
      windowMs,
      standardHeaders: 'draft-8',
      store: store(`bc:${++unique}:`),
      cost: (req) => Number(new URL(req.url).searchParams.get('cost') ?? 1),
      ...byHeader,
    });
    const s = await start({ controllers: [Api], middlewares: [limiter] });
    const send = async (cost: number) => (await get(s.base, `/a?cost=${cost}`, { 'x-key': 'k' })).status;
    assert.equal([await send(2), await send(2), await send(1), await send(1)], [200, 429, 200, 429]);
    // the entry answers requests of its own cost; another cost asks Redis (its Retry-After differs)
    await server().admin.config('RESETSTAT');
    assert.equal([await send(1), await send(1)], [429, 429]);
    assert.is(await scriptCalls(), 0);
    assert.is(await send(2), 429);
    assert.is(await scriptCalls(), 1);
    await limiter.resetKey('k');
    assert.is(await send(3), 200, 'resetKey forgot the cached refusal');
    await s.close();

    const uncached = await serve({ max: 1, windowMs, blockDuration: 30_000, store: store(`bc:${++unique}:`, false), ...byHeader });
    await hit(uncached.base);
    await server().admin.config('RESETSTAT');
    for (let i = 0; i < 5; i++) assert.is(await hit(uncached.base), '429 retry=30 "1-in-10s";r=0;t=30');
    assert.is(await scriptCalls(), 5);
    await uncached.close();
  }),
);

for (const algorithm of algorithms) {
  redisTest(
    `${algorithm}, skipSuccessfulRequests: a refused penalty is not cached, since a success taken back frees room before the window does`,
    () =>
      withClock(t0, async () => {
        let release: () => void = () => {};
        const held = new Promise<void>((resolve) => (release = resolve));
        let entered: () => void = () => {};
        const inHandler = new Promise<void>((resolve) => (entered = resolve));
        const limiter = rateLimit({
          max: 2,
          windowMs,
          algorithm,
          skipSuccessfulRequests: true,
          standardHeaders: 'draft-8',
          store: store(`bc:${++unique}:`),
          keyGenerator: () => 'k',
        });
        @Controller('/')
        class Login {
          @Get('/login', limiter) async login() {
            entered();
            await held; // a success still being answered: counted until it is taken back
            return { ok: true };
          }
          @Get('/wrong-code') async wrongCode(@Req() req: KilnRequest) {
            return { count: (await limiter.penalize(req)).count };
          }
        }
        const s = await start({ controllers: [Login] });
        try {
          const inFlight = get(s.base, '/login');
          await inHandler;
          const penalties = [await get(s.base, '/wrong-code'), await get(s.base, '/wrong-code')];
          assert.equal(await Promise.all(penalties.map((r) => r.json())), [{ count: 2 }, { count: 3 }], 'the second penalty did not fit');
          release();
          assert.is((await inFlight).status, 200);
          // the success is back: one penalty in the window, room for this request
          const next = await get(s.base, '/login');
          const t = algorithm === 'sliding-log' ? 10 : 15; // the counter: 2 at the window's start weigh until half the next
          assert.equal([next.status, next.headers.get('ratelimit')], [200, `"2-in-10s";r=0;t=${t}`]);
        } finally {
          await s.close();
        }
      }),
  );
}

redisTest('the cache is bounded: maxKeys refusals at most, the oldest dropped first', () =>
  withClock(t0, async () => {
    const cached = store(`bc:${++unique}:`, { maxKeys: 20 });
    const s = await serve({ max: 1, windowMs, blockDuration: 30_000, store: cached, ...byHeader });
    for (let i = 0; i < 50; i++) {
      await hit(s.base, `k${i}`);
      assert.match(await hit(s.base, `k${i}`), /^429 /);
      assert.ok(cached.cachedRefusals <= 20, `${cached.cachedRefusals} cached`);
    }
    // a dropped key costs a round trip and is still refused (Redis holds the block)
    await server().admin.config('RESETSTAT');
    assert.is(await hit(s.base, 'k0'), '429 retry=30 "1-in-10s";r=0;t=30');
    assert.is(await scriptCalls(), 1);
    await s.close();
  }),
);

test('blockCache must be a boolean or { maxKeys } (KILN212)', () => {
  for (const blockCache of ['yes', 0, null, { maxKeys: 0 }, { maxKeys: 1.5 }]) {
    try {
      new RedisStore({ client: { evalsha: async () => 0 } as never, blockCache: blockCache as never });
      assert.unreachable(JSON.stringify(blockCache));
    } catch (error) {
      assert.is((error as RateLimitError).code, 'KILN212', JSON.stringify(blockCache));
    }
  }
});

test.run();
