// skipSuccessfulRequests takes a success back before its answer is handed on: the client's next
// request, to this process or another, must find the units back. Over HTTP with a store whose
// refunds land only when the test lets them, and against a private redis-server whose scripts are
// flushed before every request (a restart, a failover: the take-back then needs a second round
// trip, the case that made failed-requests.test.ts flaky), or paused (the wait is bounded).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get, HttpError, type KilnRequest, Req } from '@kiln/core';
import {
  MemoryStore,
  type RateLimitAlgorithm,
  type RateLimitHit,
  type RateLimitStore,
  rateLimit,
  RedisStore,
  RedisStoreTimeoutError,
} from '@kiln/rate-limit';
import { commandCalls, privateRedisForSuite } from './support/private-redis.js';
import { withClock } from './support/clock.js';
import { get, sleep, start } from './support/server.js';

const t0 = 1_767_225_600_000;
const windowMs = 10_000;
const { redisTest, server, client } = privateRedisForSuite('refund-before-answer', { maxRetriesPerRequest: 1 });
const algorithms: RateLimitAlgorithm[] = ['sliding-log', 'sliding-window-counter'];

@Controller('/')
class Auth {
  @Get('/login') login(@Req() req: KilnRequest) {
    if (new URL(req.url).searchParams.get('password') !== 'right') throw new HttpError(401, 'Wrong password');
    return { ok: true };
  }
}

/** Status and draft-8 `r=` of one login. */
async function login(base: string, password: string): Promise<string> {
  const r = await get(base, `/login?password=${password}`);
  return `${r.status} ${r.headers.get('ratelimit')?.match(/;r=(\d+)/)?.[1] ?? '-'}`;
}

/** A MemoryStore whose refunds are asynchronous and land only when `release()` is called (a slow backend). */
function heldRefunds() {
  const inner = new MemoryStore();
  const held: (() => void)[] = [];
  const events: string[] = [];
  let asked: (() => void) | undefined;
  const store: RateLimitStore = {
    init: (options) => inner.init(options),
    increment: (key) => inner.increment(key),
    reset: (key) => inner.reset(key),
    hit(key, request): RateLimitHit {
      const hit = inner.hit(key, request);
      const refund = hit.refund;
      if (refund === undefined) return hit;
      const late = () =>
        new Promise<void>((resolve) => {
          held.push(() => {
            void refund(); // MemoryStore: synchronous
            events.push('refund landed');
            resolve();
          });
          asked?.();
        });
      return { ...hit, refund: late };
    },
  };
  return {
    store,
    events,
    /** Resolves once the middleware has asked for a refund. */
    refundAsked: () => new Promise<void>((resolve) => (held.length > 0 ? resolve() : (asked = resolve))),
    release() {
      for (const land of held.splice(0)) land();
    },
  };
}

test('a success is answered only once its refund has landed, so the next request finds the units back', async () => {
  const slow = heldRefunds();
  const limiter = rateLimit({
    max: 2,
    windowMs,
    store: slow.store,
    skipSuccessfulRequests: true,
    standardHeaders: 'draft-8',
    keyGenerator: () => 'one',
  });
  const s = await start({ controllers: [Auth], middlewares: [limiter] });
  try {
    const replies: string[] = [];
    for (let i = 0; i < 3; i++) {
      const answered = login(s.base, 'right').then((reply) => {
        slow.events.push('answered');
        return reply;
      });
      await slow.refundAsked();
      // an answer that did not wait for its refund reaches the client in this time (loopback)
      await Promise.race([answered, sleep(100)]);
      slow.release();
      replies.push(await answered);
    }
    replies.push(await login(s.base, 'wrong'), await login(s.base, 'wrong'), await login(s.base, 'right'));
    assert.equal(slow.events, ['refund landed', 'answered', 'refund landed', 'answered', 'refund landed', 'answered']);
    assert.equal(replies, ['200 1', '200 1', '200 1', '401 1', '401 0', '429 0']);
  } finally {
    await s.close();
  }
});

/** Calls of one command Redis has run since it started. */
async function calls(command: string): Promise<number> {
  return (await commandCalls(server().admin))[command] ?? 0;
}

let unique = 0;
const newStore = (options: { timeoutMs?: number; onError?: (error: unknown) => void } = {}) =>
  new RedisStore({ client: client(), prefix: `refund-${++unique}:`, clock: () => Date.now(), timeoutMs: 2000, ...options });

for (const algorithm of algorithms) {
  redisTest(`${algorithm}: with the scripts flushed before every request, each success is back before the next request`, () =>
    withClock(t0, async () => {
      const limiter = rateLimit({
        max: 2,
        windowMs,
        algorithm,
        store: newStore(),
        skipSuccessfulRequests: true,
        standardHeaders: 'draft-8',
        keyGenerator: () => 'one',
      });
      const s = await start({ controllers: [Auth], middlewares: [limiter] });
      try {
        const evalsBefore = await calls('eval');
        const replies: string[] = [];
        for (const password of ['right', 'right', 'right', 'right', 'right', 'right', 'wrong', 'wrong', 'right']) {
          await server().admin.script('FLUSH');
          replies.push(await login(s.base, password));
        }
        assert.equal(replies, ['200 1', '200 1', '200 1', '200 1', '200 1', '200 1', '401 1', '401 0', '429 0']);
        // every counting call, and for the counter every take-back, was sent again as text after NOSCRIPT
        assert.is((await calls('eval')) - evalsBefore, algorithm === 'sliding-window-counter' ? 9 + 6 : 9);
      } finally {
        await s.close();
      }
    }),
  );

  redisTest(`${algorithm}: RedisStore's refund settles once Redis has applied it, a script reload included`, () =>
    withClock(t0, async () => {
      const store = newStore();
      store.init({ windowMs, max: 2, algorithm });
      const hit = await store.hit('k', { cost: 2, max: 2, refundable: true });
      assert.is(hit.count, 2);
      await server().admin.script('FLUSH');
      await hit.refund!();
      // read on another connection: what any other process would see next
      if (algorithm === 'sliding-log') assert.is(await server().admin.zcard(store.keyFor('k')), 0);
      else assert.is(await server().admin.get(store.keyFor('k')), `${t0 / windowMs} 0 0`);
    }),
  );

  redisTest(`${algorithm}: a refund Redis does not answer is waited for at most timeoutMs, then reported`, () =>
    withClock(t0, async () => {
      const errors: unknown[] = [];
      const store = newStore({ timeoutMs: 100, onError: (error) => errors.push(error) });
      store.init({ windowMs, max: 2, algorithm });
      const hit = await store.hit('k', { cost: 1, max: 2, refundable: true });
      await server().admin.client('PAUSE', 1500, 'ALL');
      await hit.refund!();
      assert.is(errors.length, 1);
      assert.instance(errors[0], RedisStoreTimeoutError);
      // the take-back still runs once Redis answers: sent on the same connection before this PING
      // (after a NOSCRIPT, its text is sent before the first PING's answer is seen: hence two)
      await client().ping();
      await client().ping();
      if (algorithm === 'sliding-log') assert.is(await server().admin.zcard(store.keyFor('k')), 0);
      else assert.is(await server().admin.get(store.keyFor('k')), `${t0 / windowMs} 0 0`);
    }),
  );
}

test.run();
