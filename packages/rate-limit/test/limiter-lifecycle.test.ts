// Over HTTP: a limiter's counters across apps (resetKey, resetAll, one limiter per app), eviction
// that never frees a limited client, the sliding-window counter's headers, and what counts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Body, Controller, Get, Param, Post } from '@kiln/core';
import { MemoryStore, RateLimitError, rateLimit, type RateLimitMiddleware, type RateLimitOptions } from '@kiln/rate-limit';
import { withClock } from './support/clock.js';
import { get, getInProcess, limitHeaders, start } from './support/server.js';

const t0 = 1_767_225_600_000;

@Controller('/auth')
class Auth {
  @Post('/login') login(@Body('user') user: string) {
    return { welcome: user };
  }
}

@Controller('/users')
class Users {
  @Get('/:id') show(@Param('id') id: number) {
    return { id };
  }
}

@Controller('/')
class Ping {
  @Get('/ping') ping() {
    return { ok: true };
  }
}

/** POST /auth/login with a JSON body, over the socket. */
async function login(base: string, user: string): Promise<number> {
  const response = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-user': user },
    body: JSON.stringify({ user }),
  });
  await response.arrayBuffer();
  return response.status;
}

const byUser = (req: { headers: Headers }) => req.headers.get('x-user') ?? 'anonymous';

// The friction of issue 25: a limiter at module level, as an app's module would declare it.
const loginLimit = rateLimit({ max: 3, windowMs: 60_000, keyGenerator: byUser });

test('a limiter defined at module level counts across apps; resetAll and resetKey isolate them', async () => {
  const a = await start({ controllers: [Auth], middlewares: [loginLimit] });
  assert.equal([await login(a.base, 'alice'), await login(a.base, 'alice'), await login(a.base, 'alice')], [200, 200, 200]);
  await a.close();

  const b = await start({ controllers: [Auth], middlewares: [loginLimit] });
  assert.is(await login(b.base, 'alice'), 429, "a new app shares the module-level limiter's counters");
  await loginLimit.resetAll();
  assert.is(await login(b.base, 'alice'), 200, 'resetAll: the new app starts from zero');
  assert.equal(
    [await login(b.base, 'bob'), await login(b.base, 'bob'), await login(b.base, 'bob'), await login(b.base, 'bob')],
    [200, 200, 200, 429],
  );
  await loginLimit.resetKey('bob');
  assert.is(await login(b.base, 'bob'), 200, 'resetKey forgets that key');
  assert.is(await login(b.base, 'alice'), 200, 'and only that key (alice has 2 of 3)');
  assert.equal([await login(b.base, 'alice'), await login(b.base, 'alice')], [200, 429]);
  await b.close();
  await loginLimit.resetAll();
});

test('one limiter per app (created where the app is built): apps never share counters', async () => {
  const buildApp = () => start({ controllers: [Auth], middlewares: [rateLimit({ max: 1, windowMs: 60_000, keyGenerator: byUser })] });
  const a = await buildApp();
  const b = await buildApp();
  assert.equal([await login(a.base, 'carol'), await login(a.base, 'carol')], [200, 429]);
  assert.is(await login(b.base, 'carol'), 200, 'app B has its own counters');
  await a.close();
  await b.close();
});

test('resetKey on the default key: the client address as req.ip gives it, IPv6 grouped by ipv6Subnet', async () => {
  const limiter = rateLimit({ max: 1, windowMs: 60_000 });
  const s = await start({ controllers: [Ping], middlewares: [limiter] });
  assert.equal([(await get(s.base, '/ping')).status, (await get(s.base, '/ping')).status], [200, 429]);
  await limiter.resetKey('127.0.0.1');
  assert.is((await get(s.base, '/ping')).status, 200);
  await s.close();
  // in process, through a proxy header the server trusts
  const v6 = rateLimit({ max: 1, windowMs: 60_000 });
  const app = await start({ controllers: [Ping], middlewares: [v6], trustProxy: true });
  const from = (address: string) => getInProcess(app.app, '/ping', { 'x-forwarded-for': address }).then((r) => r.status);
  assert.equal([await from('2001:db8:1:2::9'), await from('2001:db8:1:2::9')], [200, 429]);
  await v6.resetKey('2001:db8:1:2::77'); // same /56
  assert.is(await from('2001:db8:1:2::9'), 200);
  await app.close();
});

test('limiter.resetAll on a store without resetAll throws KILN206; the limiter exposes its store', async () => {
  const store = { increment: () => 1, reset: () => {} };
  const limiter = rateLimit({ store });
  assert.is(limiter.store, store);
  try {
    await limiter.resetAll();
    assert.unreachable('resetAll resolved');
  } catch (error) {
    assert.instance(error, RateLimitError);
    assert.is((error as RateLimitError).code, 'KILN206');
  }
  assert.instance(rateLimit().store, MemoryStore);
});

test('invalid requests count toward the limit: the limiter runs before binding (400 then 429)', async () => {
  const s = await start({ controllers: [Users], middlewares: [rateLimit({ max: 2, windowMs: 60_000 })], strictValidation: true });
  const bad = await get(s.base, '/users/not-a-number');
  assert.is(bad.status, 400);
  assert.is(limitHeaders(bad).remaining, '1', 'the 400 was counted');
  assert.is((await get(s.base, '/users/7')).status, 200);
  const refused = await get(s.base, '/users/7');
  assert.is(refused.status, 429);
  await s.close();
});

test('eviction never frees a limited client: 200, 200, 429, then 100,000 fresh keys, still 429 over HTTP', async () => {
  // A small budget so that eviction runs over and over during the HTTP part too.
  const store = new MemoryStore({ maxBytes: 64 * 1024 });
  const limiter: RateLimitMiddleware = rateLimit({ max: 2, windowMs: 60_000, keyGenerator: byUser, store });
  const s = await start({ controllers: [Auth], middlewares: [limiter] });
  try {
    const firstAt = Date.now();
    assert.equal([await login(s.base, 'victim'), await login(s.base, 'victim'), await login(s.base, 'victim')], [200, 200, 429]);
    // 500 fresh keys over the socket (the budget holds about 150: an eviction every 30 or so) …
    for (let i = 0; i < 500; i += 50) await Promise.all(Array.from({ length: 50 }, (_, j) => login(s.base, `fresh-${i + j}`)));
    assert.is(await login(s.base, 'victim'), 429, 'after 500 fresh keys over HTTP');
    // … then 99,500 more through the limiter's own store, as the middleware would count them
    for (let i = 500; i < 100_000; i++) store.hit(`fresh-${i}`);
    assert.ok(store.bytes <= 64 * 1024, `${store.bytes} bytes held`);
    const still = await fetch(`${s.base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user': 'victim' },
      body: '{"user":"victim"}',
    });
    // the victim's first request was answered between firstAt and now: it leaves the window 60 s later
    const expected = Math.ceil((firstAt + 60_000 - Date.now()) / 1000);
    assert.is(still.status, 429, 'after 100,000 fresh keys');
    const retryAfter = Number(still.headers.get('retry-after'));
    assert.ok(retryAfter >= expected - 1 && retryAfter <= expected + 3, `Retry-After ${retryAfter}, expected about ${expected}`);
  } finally {
    await s.close();
  }
});

test('a full store of limited clients refuses new keys (overflow refuse) with a truthful Retry-After', () =>
  withClock(t0, async (clock) => {
    const store = new MemoryStore({ maxKeys: 2 });
    const s = await start({ controllers: [Auth], middlewares: [rateLimit({ max: 1, windowMs: 10_000, keyGenerator: byUser, store })] });
    assert.equal([await login(s.base, 'a'), await login(s.base, 'b')], [200, 200]);
    clock.now += 4000;
    const newcomer = await fetch(`${s.base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user': 'c' },
      body: '{"user":"c"}',
    });
    assert.equal([newcomer.status, newcomer.headers.get('retry-after')], [429, '6'], "room frees when a's request leaves");
    clock.now += 6000;
    assert.is(await login(s.base, 'c'), 200);
    await s.close();
  }));

async function counterHeaders(options: RateLimitOptions, requests: number, clock: { now: number }, stepMs: number) {
  const s = await start({ controllers: [Ping], middlewares: [rateLimit({ algorithm: 'sliding-window-counter', ...options })] });
  const replies = [];
  for (let i = 0; i < requests; i++) {
    replies.push(await get(s.base, '/ping'));
    clock.now += stepMs;
  }
  await s.close();
  return replies;
}

test('sliding-window-counter over HTTP: the RateLimit-* headers, then a truthful Retry-After that a client can wait for', () =>
  withClock(t0, async (clock) => {
    const limiter = rateLimit({ max: 4, windowMs: 10_000, algorithm: 'sliding-window-counter' });
    const s = await start({ controllers: [Ping], middlewares: [limiter] });
    const replies = [];
    for (let i = 0; i < 5; i++) replies.push(await get(s.base, '/ping'));
    assert.equal(
      replies.map((r) => [r.status, limitHeaders(r).remaining, limitHeaders(r).reset]),
      [
        [200, '3', String((t0 + 20_000) / 1000)],
        [200, '2', String((t0 + 15_000) / 1000)],
        [200, '1', String(Math.ceil((t0 + 13_334) / 1000))],
        [200, '0', String(Math.ceil((t0 + 12_500) / 1000))],
        [429, '0', String(Math.ceil((t0 + 12_500) / 1000))],
      ],
    );
    assert.is(limitHeaders(replies[4]!).retryAfter, '13', 'passes again at t0 + 12.5 s: 4 × (1 − 0.25) + 1 ≤ 4');
    clock.now = t0 + 12_499;
    assert.is((await get(s.base, '/ping')).status, 429);
    clock.now = t0 + 12_500;
    assert.is((await get(s.base, '/ping')).status, 200);
    await s.close();
  }));

test('sliding-window-counter with draft-6 and draft-8 headers', () =>
  withClock(t0 + 2500, async (clock) => {
    const six = await counterHeaders({ max: 2, windowMs: 10_000, standardHeaders: 'draft-6' }, 3, clock, 0);
    assert.equal(
      six.map((r) => [
        r.status,
        r.headers.get('ratelimit-policy'),
        r.headers.get('ratelimit-limit'),
        r.headers.get('ratelimit-remaining'),
        r.headers.get('ratelimit-reset'),
      ]),
      [
        [200, '2;w=10', '2', '1', '18'], // one request weighs until the end of the next window: t0 + 20 s
        [200, '2;w=10', '2', '0', '13'], // two: until the next window has covered half of them, t0 + 15 s
        [429, '2;w=10', '2', '0', '13'], // refused: passes again when 2 × (1 − f) + 1 ≤ 2 in the next window, t0 + 15 s
      ],
    );
    clock.now = t0 + 2500;
    const eight = await counterHeaders({ max: 2, windowMs: 10_000, standardHeaders: 'draft-8', name: 'login' }, 3, clock, 0);
    assert.equal(
      eight.map((r) => [r.status, r.headers.get('ratelimit-policy'), r.headers.get('ratelimit')]),
      [
        [200, '"login";q=2;w=10', '"login";r=1;t=18'],
        [200, '"login";q=2;w=10', '"login";r=0;t=13'],
        [429, '"login";q=2;w=10', '"login";r=0;t=13'],
      ],
    );
  }));

test('algorithm is checked (KILN201), and a store without init cannot be told the counter', () => {
  const code = (f: () => unknown) => {
    try {
      f();
    } catch (error) {
      return (error as RateLimitError).code;
    }
    return undefined;
  };
  assert.is(
    code(() => rateLimit({ algorithm: 'fixed-window' as never })),
    'KILN201',
  );
  assert.is(
    code(() => rateLimit({ algorithm: 'sliding-window-counter', store: { increment: () => 1, reset: () => {} } })),
    'KILN201',
  );
  assert.is(
    code(() => new MemoryStore({ maxBytes: 100 })),
    'KILN203',
  );
  assert.is(
    code(() => new MemoryStore({ overflow: 'drop' as never })),
    'KILN203',
  );
});

test.run();
