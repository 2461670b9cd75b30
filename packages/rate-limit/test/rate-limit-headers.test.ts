import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get } from '@kiln/core';
import { rateLimit, type RateLimitOptions } from '@kiln/rate-limit';
import { get, getInProcess, start, type Reply } from './support/server.js';
import { withClock } from './support/clock.js';

/** A global limiter (10 per 60 s) and a strict route limiter (2 per 30 s) on GET /strict, both with the same header options. */
function serveStacked(headers: Pick<RateLimitOptions, 'standardHeaders' | 'legacyHeaders'>, names = true) {
  @Controller('/')
  class Api {
    @Get('/strict', rateLimit({ max: 2, windowMs: 30_000, ...headers, ...(names ? { name: 'strict' } : {}) }))
    strict() {
      return { ok: true };
    }
  }
  return start({
    controllers: [Api],
    middlewares: [rateLimit({ max: 10, windowMs: 60_000, ...headers, ...(names ? { name: 'global' } : {}) })],
  });
}

const names = [
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'ratelimit-policy',
  'ratelimit',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
];

/** Every rate-limit header of a reply that is present, by lower-case name. */
function limitFields(reply: Reply): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const name of names) {
    const value = reply.headers.get(name);
    if (value !== null) fields[name] = value;
  }
  return fields;
}

const t0 = 1_767_225_600_000; // 2026-01-01T00:00:00Z, a whole second
const unix = (ms: number) => String(Math.ceil(ms / 1000));

/** Three requests to the stacked route: at t0, t0 + 10 s, and t0 + 10 s again (refused by the strict limiter). */
async function threeRequests(
  headers: Pick<RateLimitOptions, 'standardHeaders' | 'legacyHeaders'>,
  send?: 'fetch',
  named = true,
): Promise<[Reply, Reply, Reply]> {
  const replies: Reply[] = [];
  await withClock(t0, async (clock) => {
    const s = await serveStacked(headers, named);
    const one = () => (send === 'fetch' ? getInProcess(s.app, '/strict') : get(s.base, '/strict'));
    replies.push(await one());
    clock.now += 10_000;
    replies.push(await one());
    replies.push(await one());
    await s.close();
  });
  assert.equal(
    replies.map((r) => r.status),
    [200, 200, 429],
  );
  return replies as [Reply, Reply, Reply];
}

test("standardHeaders true (default): the three RateLimit-* headers exactly; the inner limiter's values", async () => {
  const [first, second, refused] = await threeRequests({});
  assert.equal(limitFields(first), { 'ratelimit-limit': '2', 'ratelimit-remaining': '1', 'ratelimit-reset': unix(t0 + 30_000) });
  assert.equal(limitFields(second), { 'ratelimit-limit': '2', 'ratelimit-remaining': '0', 'ratelimit-reset': unix(t0 + 30_000) });
  assert.equal(limitFields(refused), {
    'ratelimit-limit': '2',
    'ratelimit-remaining': '0',
    'ratelimit-reset': unix(t0 + 30_000),
    'retry-after': '20',
  });
  assert.equal(refused.json(), { error: 'Too Many Requests', message: 'Rate limit exceeded. Try again in 20 seconds.' });
});

test('draft-6: RateLimit-Policy <max>;w=<window s>, and RateLimit-Reset in seconds from now as the draft defines it', async () => {
  const [first, second, refused] = await threeRequests({ standardHeaders: 'draft-6' });
  assert.equal(limitFields(first), {
    'ratelimit-limit': '2',
    'ratelimit-remaining': '1',
    'ratelimit-reset': '30',
    'ratelimit-policy': '2;w=30',
  });
  assert.equal(limitFields(second), {
    'ratelimit-limit': '2',
    'ratelimit-remaining': '0',
    'ratelimit-reset': '20',
    'ratelimit-policy': '2;w=30',
  });
  assert.equal(limitFields(refused), {
    'ratelimit-limit': '2',
    'ratelimit-remaining': '0',
    'ratelimit-reset': '20',
    'ratelimit-policy': '2;w=30',
    'retry-after': '20',
  });
});

test('draft-7: one RateLimit field limit=, remaining=, reset= and RateLimit-Policy', async () => {
  const [first, , refused] = await threeRequests({ standardHeaders: 'draft-7' });
  assert.equal(limitFields(first), { ratelimit: 'limit=2, remaining=1, reset=30', 'ratelimit-policy': '2;w=30' });
  assert.equal(limitFields(refused), { ratelimit: 'limit=2, remaining=0, reset=20', 'ratelimit-policy': '2;w=30', 'retry-after': '20' });
});

test('draft-8: structured fields; stacked limiters each add a named list member, outer first (socket and app.fetch)', async () => {
  for (const send of [undefined, 'fetch'] as const) {
    const [first, second, refused] = await threeRequests({ standardHeaders: 'draft-8' }, send);
    const policy = '"global";q=10;w=60, "strict";q=2;w=30';
    assert.equal(limitFields(first), { 'ratelimit-policy': policy, ratelimit: '"global";r=9;t=60, "strict";r=1;t=30' }, send);
    assert.equal(limitFields(second), { 'ratelimit-policy': policy, ratelimit: '"global";r=8;t=50, "strict";r=0;t=20' }, send);
    assert.equal(
      limitFields(refused),
      { 'ratelimit-policy': policy, ratelimit: '"global";r=7;t=50, "strict";r=0;t=20', 'retry-after': '20' },
      send,
    );
  }
});

test('draft-8 without a name: <max>-in-<window s>s', async () => {
  const [first] = await threeRequests({ standardHeaders: 'draft-8' }, undefined, false);
  assert.equal(limitFields(first), {
    'ratelimit-policy': '"10-in-60s";q=10;w=60, "2-in-30s";q=2;w=30',
    ratelimit: '"10-in-60s";r=9;t=60, "2-in-30s";r=1;t=30',
  });
});

test('legacyHeaders: X-RateLimit-* (Unix seconds) beside the standard ones, or alone', async () => {
  const [first, , refused] = await threeRequests({ legacyHeaders: true });
  assert.equal(limitFields(first), {
    'ratelimit-limit': '2',
    'ratelimit-remaining': '1',
    'ratelimit-reset': unix(t0 + 30_000),
    'x-ratelimit-limit': '2',
    'x-ratelimit-remaining': '1',
    'x-ratelimit-reset': unix(t0 + 30_000),
  });
  const [alone, , refusedAlone] = await threeRequests({ standardHeaders: false, legacyHeaders: true });
  assert.equal(limitFields(alone), { 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': unix(t0 + 30_000) });
  assert.equal(limitFields(refusedAlone), {
    'x-ratelimit-limit': '2',
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': unix(t0 + 30_000),
    'retry-after': '20',
  });
  assert.equal(limitFields(refused)['retry-after'], '20');
});

test('standardHeaders false and no legacyHeaders: no header at all, not even Retry-After', async () => {
  const [first, , refused] = await threeRequests({ standardHeaders: false });
  assert.equal([limitFields(first), limitFields(refused)], [{}, {}]);
  assert.equal(refused.json(), { error: 'Too Many Requests', message: 'Rate limit exceeded. Try again in 20 seconds.' });
});

test.run();
