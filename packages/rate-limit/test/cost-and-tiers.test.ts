// `cost` (a request's weight) and `max` as a function of the request (tiers), over HTTP, in both
// stores and both algorithms, with the draft-8 headers. Time is a clock the test moves.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get } from '@kiln/core';
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

const t0 = 1_767_225_600_000; // a multiple of the 10 s window: the counter's windows start here
const windowMs = 10_000;
const redis = await connectRedis();
const client: Redis | undefined = 'client' in redis ? redis.client : undefined;
if ('skip' in redis) console.log(`cost-and-tiers: ${redis.skip}`);
let unique = 0;

type StoreKind = 'memory' | 'redis';
const storeKinds: StoreKind[] = client === undefined ? ['memory'] : ['memory', 'redis'];
const algorithms: RateLimitAlgorithm[] = ['sliding-log', 'sliding-window-counter'];

function storeOf(kind: StoreKind, clock: Clock): RateLimitStore {
  if (kind === 'memory') return new MemoryStore();
  return new RedisStore({ client: client!, prefix: `kiln-rl-cost:${process.pid}:${++unique}:`, clock: () => clock.now, timeoutMs: 2000 });
}

function serve(options: RateLimitOptions) {
  @Controller('/')
  class Api {
    @Get('/ping') ping() {
      return { ok: true };
    }
  }
  return start({ controllers: [Api], middlewares: [rateLimit(options)] });
}

/** The draft-8 fields and Retry-After of a reply, with its status. */
async function ask(base: string, headers: Record<string, string>) {
  const r = await get(base, '/ping', headers);
  return {
    status: r.status,
    policy: r.headers.get('ratelimit-policy'),
    limit: r.headers.get('ratelimit'),
    retryAfter: r.headers.get('retry-after'),
    body: r.status === 200 ? undefined : r.json(),
  };
}

for (const kind of storeKinds) {
  for (const algorithm of algorithms) {
    const label = `${kind}, ${algorithm}`;

    test(`${label}: cost weighs a request; the refused one counts nothing and passes exactly at its Retry-After`, () =>
      withClock(t0, async (clock) => {
        const s = await serve({
          max: 10,
          windowMs,
          algorithm,
          store: storeOf(kind, clock),
          name: 'api',
          standardHeaders: 'draft-8',
          keyGenerator: () => 'one',
          cost: (req) => Number(req.headers.get('x-cost') ?? '1'),
        });
        const policy = '"api";q=10;w=10';
        // the log frees a unit when its oldest leaves (t0 + 10 s); the counter estimates with the previous window spread evenly
        const firstReset = algorithm === 'sliding-log' ? 10 : 13;
        assert.equal(await ask(s.base, { 'x-cost': '4' }), {
          status: 200,
          policy,
          limit: `"api";r=6;t=${firstReset}`,
          retryAfter: null,
          body: undefined,
        });
        const second = await ask(s.base, { 'x-cost': '4' });
        assert.is(second.status, 200);
        assert.is(second.limit?.split(';t=')[0], '"api";r=2');
        // 8 of 10 taken: a request of cost 3 is refused and records nothing
        const refused = await ask(s.base, { 'x-cost': '3' });
        assert.is(refused.status, 429);
        assert.is(refused.policy, policy);
        assert.ok(refused.limit?.startsWith('"api";r=0;t='), refused.limit ?? '');
        // log: the first 4 units leave at t0 + 10 s; counter: 8 × (1 − f) + 3 ≤ 10 at f = 1/8 of the next window
        const wait = algorithm === 'sliding-log' ? 10 : 12;
        assert.is(refused.retryAfter, String(wait));
        assert.equal(refused.body, { error: 'Too Many Requests', message: `Rate limit exceeded. Try again in ${wait} seconds.` });
        // …so a request of cost 2 still fits exactly
        const exact = await ask(s.base, { 'x-cost': '2' });
        assert.is(exact.status, 200);
        assert.is(exact.limit?.split(';t=')[0], '"api";r=0');
        // a free request is refused once the quota is spent, and one costing more than max never fits
        assert.is((await ask(s.base, { 'x-cost': '0' })).status, 429);
        const tooBig = await ask(s.base, { 'x-cost': '11' });
        assert.is(tooBig.status, 429);
        assert.is(tooBig.retryAfter, '10');
        await s.close();
      }));

    test(`${label}: a refused weighed request passes at its Retry-After, not a millisecond before`, () =>
      withClock(t0, async (clock) => {
        const s = await serve({
          max: 10,
          windowMs,
          algorithm,
          store: storeOf(kind, clock),
          standardHeaders: 'draft-8',
          keyGenerator: () => 'one',
          cost: (req) => Number(req.headers.get('x-cost') ?? '1'),
        });
        assert.is((await ask(s.base, { 'x-cost': '6' })).status, 200);
        clock.now += 1000;
        assert.is((await ask(s.base, { 'x-cost': '4' })).status, 200);
        const refused = await ask(s.base, { 'x-cost': '5' });
        assert.is(refused.status, 429);
        // log: the first request's 6 units leave at t0 + 10 s (9 s from now); counter: 10 × (1 − f) + 5 ≤ 10 at f = 1/2
        const passAt = algorithm === 'sliding-log' ? t0 + 10_000 : t0 + 15_000;
        assert.is(refused.retryAfter, String(Math.ceil((passAt - clock.now) / 1000)));
        clock.now = passAt - 1;
        assert.is((await ask(s.base, { 'x-cost': '5' })).status, 429, 'a millisecond early');
        clock.now = passAt;
        const passed = await ask(s.base, { 'x-cost': '5' });
        assert.is(passed.status, 200, 'at the announced time');
        await s.close();
      }));

    test(`${label}: max per request (tiers): each key is held to its own max, and the headers say so`, () =>
      withClock(t0, async (clock) => {
        const s = await serve({
          windowMs,
          algorithm,
          store: storeOf(kind, clock),
          standardHeaders: 'draft-8',
          keyGenerator: (req) => req.headers.get('x-user') ?? 'anonymous',
          // async, as a lookup of the user's plan would be
          max: async (req) => (req.headers.get('x-plan') === 'pro' ? 5 : 2),
        });
        const free = { 'x-user': 'ann' };
        const pro = { 'x-user': 'bob', 'x-plan': 'pro' };
        const freeReplies = [await ask(s.base, free), await ask(s.base, free), await ask(s.base, free)];
        assert.equal(
          freeReplies.map((r) => [r.status, r.policy, r.limit?.split(';t=')[0]]),
          [
            [200, '"tiered-in-10s";q=2;w=10', '"tiered-in-10s";r=1'],
            [200, '"tiered-in-10s";q=2;w=10', '"tiered-in-10s";r=0'],
            [429, '"tiered-in-10s";q=2;w=10', '"tiered-in-10s";r=0'],
          ],
        );
        const proStatuses: number[] = [];
        const proRemaining: (string | undefined)[] = [];
        for (let i = 0; i < 6; i++) {
          const r = await ask(s.base, pro);
          proStatuses.push(r.status);
          proRemaining.push(r.limit?.split(';t=')[0]);
          assert.is(r.policy, '"tiered-in-10s";q=5;w=10');
        }
        assert.equal(proStatuses, [200, 200, 200, 200, 200, 429]);
        assert.equal(
          proRemaining,
          ['4', '3', '2', '1', '0', '0'].map((r) => `"tiered-in-10s";r=${r}`),
        );
        // an upgrade takes effect at once: ann's next request is held to the pro max
        assert.is((await ask(s.base, { 'x-user': 'ann', 'x-plan': 'pro' })).status, 200);
        await s.close();
      }));
  }
}

test('cost or max out of range is a 500 (KILN208, KILN209): a bug in the function, never a free pass', async () => {
  const s = await serve({
    max: (req) => Number(req.headers.get('x-max') ?? '5'),
    cost: (req) => Number(req.headers.get('x-cost') ?? '1'),
  });
  for (const cost of ['-1', '1.5', 'NaN']) {
    const r = await get(s.base, '/ping', { 'x-cost': cost });
    assert.is(r.status, 500, `cost ${cost}`);
    assert.is(r.headers.get('ratelimit-limit'), null);
  }
  for (const max of ['-1', '2.5']) {
    const r = await get(s.base, '/ping', { 'x-max': max });
    assert.is(r.status, 500, `max ${max}`);
  }
  const ok = await get(s.base, '/ping');
  assert.is(ok.status, 200);
  assert.is(ok.headers.get('ratelimit-limit'), '5');
  assert.is(ok.headers.get('ratelimit-remaining'), '4', 'the refused requests counted nothing');
  await s.close();
});

test('a handler is told the request its own max; RateLimit-Limit too', async () => {
  let told = -1;
  const s = await serve({
    max: (req) => (req.headers.get('x-plan') === 'pro' ? 3 : 1),
    keyGenerator: () => 'k',
    handler: (_req, limit) => {
      told = limit;
      return { limited: limit };
    },
  });
  const first = await get(s.base, '/ping', { 'x-plan': 'pro' });
  assert.is(first.headers.get('ratelimit-limit'), '3');
  assert.is(first.headers.get('ratelimit-remaining'), '2');
  const refused = await get(s.base, '/ping');
  assert.is(refused.status, 429);
  assert.is(refused.headers.get('ratelimit-limit'), '1');
  assert.equal(refused.json(), { limited: 1 });
  assert.is(told, 1);
  await s.close();
});

test('cost and a max function need a store with hit() (KILN207); cost must be a function (KILN201)', () => {
  const incrementOnly: RateLimitStore = { increment: () => 1, reset: () => {} };
  for (const options of [{ cost: () => 2 }, { max: () => 5 }] as RateLimitOptions[]) {
    try {
      rateLimit({ ...options, store: incrementOnly });
      assert.unreachable('accepted');
    } catch (error) {
      assert.instance(error, RateLimitError);
      assert.is((error as RateLimitError).code, 'KILN207');
    }
  }
  try {
    rateLimit({ cost: 2 as never });
    assert.unreachable('accepted');
  } catch (error) {
    assert.is((error as RateLimitError).code, 'KILN201');
  }
});

test.after(() => {
  client?.disconnect();
});

test.run();
