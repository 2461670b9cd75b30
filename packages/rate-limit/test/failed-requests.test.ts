// Counting only failed requests: `skipSuccessfulRequests` (counted, then taken back on a success)
// and `limiter.penalize(req)`, over HTTP, in both stores and both algorithms, with draft-8 headers.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get, HttpError, type KilnRequest, Req } from '@kiln/core';
import { MemoryStore, rateLimit, RedisStore, type RateLimitAlgorithm, type RateLimitStore } from '@kiln/rate-limit';
import type { Redis } from 'ioredis';
import { connectRedis } from './support/redis.js';
import { withClock, type Clock } from './support/clock.js';
import { get, start } from './support/server.js';

const t0 = 1_767_225_600_000;
const windowMs = 10_000;
const redis = await connectRedis();
const client: Redis | undefined = 'client' in redis ? redis.client : undefined;
if ('skip' in redis) console.log(`failed-requests: ${redis.skip}`);
let unique = 0;

type StoreKind = 'memory' | 'redis';
const storeKinds: StoreKind[] = client === undefined ? ['memory'] : ['memory', 'redis'];
const algorithms: RateLimitAlgorithm[] = ['sliding-log', 'sliding-window-counter'];

function storeOf(kind: StoreKind, clock: Clock): RateLimitStore {
  if (kind === 'memory') return new MemoryStore();
  return new RedisStore({ client: client!, prefix: `kiln-rl-failed:${process.pid}:${++unique}:`, clock: () => clock.now, timeoutMs: 2000 });
}

/** status and the draft-8 `r=` of one GET. */
async function login(base: string, password: string) {
  const r = await get(base, `/login?password=${password}`);
  return `${r.status} ${r.headers.get('ratelimit')?.match(/;r=(\d+)/)?.[1] ?? '-'}`;
}

for (const kind of storeKinds) {
  for (const algorithm of algorithms) {
    const label = `${kind}, ${algorithm}`;

    test(`${label}: skipSuccessfulRequests counts only answers of 400 and above`, () =>
      withClock(t0, async (clock) => {
        const limiter = rateLimit({
          max: 2,
          windowMs,
          algorithm,
          store: storeOf(kind, clock),
          skipSuccessfulRequests: true,
          standardHeaders: 'draft-8',
          keyGenerator: () => 'one',
        });
        @Controller('/')
        class Auth {
          @Get('/login') login(@Req() req: KilnRequest) {
            if (new URL(req.url).searchParams.get('password') !== 'right') throw new HttpError(401, 'Wrong password');
            return { ok: true };
          }
        }
        const s = await start({ controllers: [Auth], middlewares: [limiter] });
        try {
          const replies: string[] = [];
          // successes: each counted on arrival (r=1), then taken back
          for (let i = 0; i < 4; i++) replies.push(await login(s.base, 'right'));
          // two failures spend the quota; then everything is refused, a right password too
          replies.push(
            await login(s.base, 'wrong'),
            await login(s.base, 'wrong'),
            await login(s.base, 'wrong'),
            await login(s.base, 'right'),
          );
          assert.equal(replies, ['200 1', '200 1', '200 1', '200 1', '401 1', '401 0', '429 0', '429 0']);
        } finally {
          await s.close();
        }
      }));

    test(`${label}: penalize(req) with cost 0 on the middleware: only penalties count`, () =>
      withClock(t0, async (clock) => {
        const limiter = rateLimit({
          max: 3,
          windowMs,
          algorithm,
          store: storeOf(kind, clock),
          cost: () => 0,
          standardHeaders: 'draft-8',
          keyGenerator: () => 'one',
        });
        @Controller('/')
        class Auth {
          @Get('/login') async login(@Req() req: KilnRequest) {
            if (new URL(req.url).searchParams.get('password') !== 'right') {
              await limiter.penalize(req);
              throw new HttpError(401, 'Wrong password');
            }
            return { ok: true };
          }
        }
        const s = await start({ controllers: [Auth], middlewares: [limiter] });
        try {
          const replies: string[] = [];
          for (let i = 0; i < 3; i++) replies.push(await login(s.base, 'right'));
          // each response shows the headers written on arrival; the next one shows the penalty
          for (let i = 0; i < 3; i++) replies.push(await login(s.base, 'wrong'));
          replies.push(await login(s.base, 'right'), await login(s.base, 'wrong'));
          assert.equal(replies, ['200 3', '200 3', '200 3', '401 3', '401 2', '401 1', '429 0', '429 0']);
          // a penalty of 2 on a fresh window: the counted hit says what is left
          clock.now += 2 * windowMs;
          const hit = await limiter.penalize({ url: 'http://x/', headers: new Headers() } as unknown as KilnRequest, 2);
          assert.is(hit.count, 2);
          assert.is(await login(s.base, 'right'), '200 1');
        } finally {
          await s.close();
        }
      }));
  }
}

test.after(() => {
  client?.disconnect();
});

test.run();
