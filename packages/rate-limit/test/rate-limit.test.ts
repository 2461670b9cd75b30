import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get, HttpError, type KilnRequest } from '@kiln/core';
import { readFileSync } from 'node:fs';
import { rateLimit, MemoryStore, RateLimitError, rateLimitErrorCodes, type RateLimitOptions, type RateLimitStore } from '@kiln/rate-limit';
import { get, getInProcess, limitHeaders, sleep, start } from './support/server.js';
import { withClock } from './support/clock.js';

const t0 = 1_767_225_600_000;

function serve(options: RateLimitOptions) {
  @Controller('/')
  class Api {
    @Get('/ping') ping() {
      return { ok: true };
    }
    @Get('/fail') fail() {
      throw new HttpError(404, 'nothing here');
    }
  }
  return start({ controllers: [Api], middlewares: [rateLimit(options)] });
}

const seconds = (ms: number) => Math.ceil(ms / 1000);
const defaultBody = (wait: number) => ({ error: 'Too Many Requests', message: `Rate limit exceeded. Try again in ${wait} seconds.` });

/** A store that records the keys it is asked about and counts nothing. */
function keySpy(): { store: RateLimitStore; keys: string[] } {
  const keys: string[] = [];
  return {
    keys,
    store: {
      increment(key) {
        keys.push(key);
        return 1;
      },
      reset() {},
    },
  };
}

test('defaults: max 100 per 60 s, headers on the first response', async () => {
  const s = await serve({});
  const before = Date.now();
  const r = await get(s.base, '/ping');
  const after = Date.now();
  assert.is(r.status, 200);
  assert.equal(r.json(), { ok: true });
  const h = limitHeaders(r);
  assert.is(h.limit, '100');
  assert.is(h.remaining, '99');
  assert.ok(Number(h.reset) >= seconds(before + 60_000) && Number(h.reset) <= seconds(after + 60_000), `reset ${h.reset}`);
  assert.is(h.retryAfter, null);
  await s.close();
});

test('max: remaining counts down to 0, then the default 429 with every header', async () => {
  const s = await serve({ max: 3, windowMs: 800 });
  const remaining: (string | null)[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await get(s.base, '/ping');
    assert.is(r.status, 200);
    remaining.push(r.headers.get('ratelimit-remaining'));
  }
  assert.equal(remaining, ['2', '1', '0']);
  const denied = await get(s.base, '/ping');
  assert.is(denied.status, 429);
  assert.is(denied.headers.get('content-type'), 'application/json');
  const h = limitHeaders(denied);
  assert.is(h.limit, '3');
  assert.is(h.remaining, '0');
  assert.is(h.retryAfter, '1');
  assert.equal(denied.json(), defaultBody(1));
  assert.is(denied.text, '{"error":"Too Many Requests","message":"Rate limit exceeded. Try again in 1 seconds."}');
  await s.close();
});

test('headers are added to error responses of the route too', async () => {
  const s = await serve({ max: 5, windowMs: 1000 });
  const r = await get(s.base, '/fail');
  assert.is(r.status, 404);
  assert.is(r.headers.get('ratelimit-limit'), '5');
  assert.is(r.headers.get('ratelimit-remaining'), '4');
  assert.is(r.json().message, 'nothing here');
  await s.close();
});

test('reset and Retry-After are truthful: when the oldest counted request leaves the window', () =>
  withClock(t0, async (clock) => {
    const windowMs = 3000;
    const s = await serve({ max: 2, windowMs });
    await get(s.base, '/ping'); // t0
    clock.now += 1100;
    const second = await get(s.base, '/ping');
    // the second response already announces the first request's expiry, not now + windowMs
    assert.is(second.headers.get('ratelimit-reset'), String(seconds(t0 + windowMs)));
    const denied = await get(s.base, '/ping');
    assert.is(denied.status, 429);
    const h = limitHeaders(denied);
    assert.equal([h.limit, h.remaining, h.reset], ['2', '0', String(seconds(t0 + windowMs))]);
    assert.is(h.retryAfter, '2'); // 1.9 s left of the first request's 3 s, rounded up; now + windowMs would say 3
    assert.equal(denied.json(), defaultBody(2));
    clock.now += Number(h.retryAfter) * 1000;
    const again = await get(s.base, '/ping');
    assert.is(again.status, 200, 'a request sent after Retry-After passes');
    assert.is(again.headers.get('ratelimit-remaining'), '0');
    await s.close();
  }));

test('windowMs: the window slides; each request expires on its own', () =>
  withClock(t0, async (clock) => {
    const s = await serve({ max: 2, windowMs: 600 });
    assert.is((await get(s.base, '/ping')).status, 200); // t0
    clock.now += 300;
    assert.is((await get(s.base, '/ping')).status, 200); // t0 + 300
    assert.is((await get(s.base, '/ping')).status, 429);
    clock.now += 299;
    assert.is((await get(s.base, '/ping')).status, 429, 't0 + 599: the first is still in the window');
    clock.now += 1; // t0 + 600: the first left the window, the second (until t0 + 900) has not
    const r = await get(s.base, '/ping');
    assert.is(r.status, 200);
    assert.is(r.headers.get('ratelimit-remaining'), '0');
    assert.is((await get(s.base, '/ping')).status, 429);
    await s.close();
  }));

test('a refused request is not counted: waiting for Retry-After is enough even while retrying', () =>
  withClock(t0, async (clock) => {
    const s = await serve({ max: 1, windowMs: 600 });
    assert.is((await get(s.base, '/ping')).status, 200); // t0
    for (let i = 0; i < 5; i++) {
      assert.is((await get(s.base, '/ping')).status, 429);
      clock.now += 40;
    }
    clock.now += 400; // t0 + 600: the first request has left; a counted retry (t0 + 40 …) would still block
    assert.is((await get(s.base, '/ping')).status, 200);
    await s.close();
  }));

test('standardHeaders false: no rate-limit header on 200 nor on 429', async () => {
  const s = await serve({ max: 1, windowMs: 500, standardHeaders: false });
  const ok = await get(s.base, '/ping');
  assert.equal(limitHeaders(ok), { limit: null, remaining: null, reset: null, retryAfter: null });
  const denied = await get(s.base, '/ping');
  assert.is(denied.status, 429);
  assert.equal(limitHeaders(denied), { limit: null, remaining: null, reset: null, retryAfter: null });
  assert.equal(denied.json(), defaultBody(1));
  await s.close();
});

test('handler returning data: JSON 429 with the headers; it gets limit, remaining 0 and resetTime in ms', async () => {
  const calls: unknown[][] = [];
  const s = await serve({
    max: 1,
    windowMs: 700,
    handler: (req, limit, remaining, resetTime) => {
      calls.push([req.path, limit, remaining, resetTime]);
      return { slowDown: true, at: resetTime };
    },
  });
  const before = Date.now();
  await get(s.base, '/ping');
  const after = Date.now();
  const denied = await get(s.base, '/ping');
  assert.is(denied.status, 429);
  assert.is(denied.headers.get('content-type'), 'application/json');
  assert.is(calls.length, 1);
  const [path, limit, remaining, resetTime] = calls[0] as [string, number, number, number];
  assert.equal([path, limit, remaining], ['/ping', 1, 0]);
  assert.ok(resetTime >= before + 700 && resetTime <= after + 700, `resetTime ${resetTime} is the first request + windowMs, in ms`);
  assert.equal(denied.json(), { slowDown: true, at: resetTime });
  const h = limitHeaders(denied);
  assert.equal([h.limit, h.remaining, h.reset, h.retryAfter], ['1', '0', String(seconds(resetTime)), '1']);
  await s.close();
});

test('handler returning a string or null: JSON 429 of that value', async () => {
  const s = await serve({ max: 0, handler: () => 'no' });
  const r = await get(s.base, '/ping');
  assert.is(r.status, 429);
  assert.is(r.text, '"no"');
  const n = await serve({ max: 0, handler: () => null });
  const rn = await get(n.base, '/ping');
  assert.equal([rn.status, rn.text], [429, 'null']);
  await s.close();
  await n.close();
});

test('async handler returning data: JSON 429', async () => {
  const s = await serve({
    max: 0,
    handler: async () => {
      await sleep(5);
      return { later: 1 };
    },
  });
  const r = await get(s.base, '/ping');
  assert.is(r.status, 429);
  assert.equal(r.json(), { later: 1 });
  await s.close();
});

test('handler returning a Response: sent as is (status, body, its headers), rate-limit headers added', async () => {
  const s = await serve({
    max: 0,
    windowMs: 2000,
    handler: () => new Response('busy', { status: 503, headers: { 'content-type': 'text/plain', 'x-custom': 'yes' } }),
  });
  const r = await get(s.base, '/ping');
  assert.equal([r.status, r.text, r.headers.get('content-type'), r.headers.get('x-custom')], [503, 'busy', 'text/plain', 'yes']);
  assert.equal([r.headers.get('ratelimit-limit'), r.headers.get('ratelimit-remaining'), r.headers.get('retry-after')], ['0', '0', '2']);
  await s.close();
});

test('handler throwing HttpError(429, message): 429 with that message and the headers', async () => {
  const s = await serve({
    max: 0,
    windowMs: 1000,
    handler: () => {
      throw new HttpError(429, 'Slow down, please');
    },
  });
  const r = await get(s.base, '/ping');
  assert.is(r.status, 429);
  assert.equal(r.json(), { error: 'Too Many Requests', message: 'Slow down, please' });
  assert.equal([r.headers.get('ratelimit-remaining'), r.headers.get('retry-after')], ['0', '1']);
  await s.close();
});

test('handler returning undefined: the default 429', async () => {
  let called = 0;
  const s = await serve({
    max: 0,
    windowMs: 1000,
    handler: () => {
      called++;
    },
  });
  const r = await get(s.base, '/ping');
  assert.equal([r.status, r.json(), called], [429, defaultBody(1), 1]);
  await s.close();
});

test('skip: a skipped request is neither counted nor given headers (sync and async)', async () => {
  const s = await serve({ max: 1, windowMs: 1000, skip: (req) => req.headers.get('x-internal') === 'yes' });
  for (let i = 0; i < 3; i++) {
    const r = await get(s.base, '/ping', { 'x-internal': 'yes' });
    assert.equal([r.status, r.headers.get('ratelimit-limit')], [200, null]);
  }
  assert.is((await get(s.base, '/ping')).headers.get('ratelimit-remaining'), '0');
  assert.is((await get(s.base, '/ping')).status, 429);
  assert.is((await get(s.base, '/ping', { 'x-internal': 'yes' })).status, 200);
  await s.close();

  const a = await serve({
    max: 1,
    windowMs: 1000,
    skip: async (req) => {
      await sleep(1);
      return req.headers.get('x-internal') === 'yes';
    },
  });
  assert.is((await get(a.base, '/ping', { 'x-internal': 'yes' })).status, 200);
  assert.is((await get(a.base, '/ping')).status, 200);
  assert.is((await get(a.base, '/ping')).status, 429);
  assert.is((await get(a.base, '/ping', { 'x-internal': 'yes' })).status, 200);
  await a.close();
});

test('keyGenerator: each key has its own counter', async () => {
  const s = await serve({ max: 1, windowMs: 1000, keyGenerator: (req) => req.headers.get('x-api-key') ?? 'anonymous' });
  assert.is((await get(s.base, '/ping', { 'x-api-key': 'a' })).status, 200);
  assert.is((await get(s.base, '/ping', { 'x-api-key': 'b' })).status, 200);
  assert.is((await get(s.base, '/ping', { 'x-api-key': 'a' })).status, 429);
  assert.is((await get(s.base, '/ping')).status, 200);
  assert.is((await get(s.base, '/ping')).status, 429);
  await s.close();
});

test('default key (server trustProxy default): X-Forwarded-For first address, else X-Real-IP, else the socket address; IPv6 by /56', async () => {
  const spy = keySpy();
  const s = await serve({ store: spy.store });
  await get(s.base, '/ping', { 'x-forwarded-for': ' 203.0.113.7 , 10.0.0.1' });
  await get(s.base, '/ping', { 'x-forwarded-for': '203.0.113.7', 'x-real-ip': '198.51.100.2' });
  await get(s.base, '/ping', { 'x-real-ip': ' 198.51.100.2 ' });
  await get(s.base, '/ping');
  await get(s.base, '/ping', { 'x-forwarded-for': '2001:db8::1' });
  assert.equal(spy.keys, ['203.0.113.7', '203.0.113.7', '198.51.100.2', '127.0.0.1', '2001:db8::/56']);
  await s.close();
});

test('default key without a socket (app.fetch): a hash of User-Agent + Accept-Language', async () => {
  const spy = keySpy();
  const s = await serve({ store: spy.store });
  await getInProcess(s.app, '/ping', { 'user-agent': 'curl/8', 'accept-language': 'fr' });
  await getInProcess(s.app, '/ping', { 'user-agent': 'curl/8', 'accept-language': 'fr' });
  await getInProcess(s.app, '/ping', { 'user-agent': 'curl/8', 'accept-language': 'en' });
  await getInProcess(s.app, '/ping', { 'user-agent': 'curl/8', 'accept-language': 'en', 'x-forwarded-for': '192.0.2.9' });
  const [a, b, c, d] = spy.keys as [string, string, string, string];
  assert.match(a, /^fp:[0-9a-z]+$/);
  assert.is(a, b);
  assert.is.not(a, c);
  assert.is(d, '192.0.2.9');
  await s.close();
});

test('deprecated rateLimit({ trustProxy: false }): X-Forwarded-For and X-Real-IP are ignored even when the server trusts them', async () => {
  const spy = keySpy();
  const s = await serve({ store: spy.store, trustProxy: false });
  await get(s.base, '/ping', { 'x-forwarded-for': '203.0.113.7' });
  await get(s.base, '/ping', { 'x-real-ip': '198.51.100.2' });
  await getInProcess(s.app, '/ping', { 'x-forwarded-for': '203.0.113.7', 'user-agent': 'x' });
  assert.equal(spy.keys.slice(0, 2), ['127.0.0.1', '127.0.0.1']);
  assert.match(spy.keys[2]!, /^fp:/);
  await s.close();
  const limited = await serve({ max: 1, windowMs: 1000, trustProxy: false });
  assert.is((await get(limited.base, '/ping', { 'x-forwarded-for': '1.1.1.1' })).status, 200);
  assert.is(
    (await get(limited.base, '/ping', { 'x-forwarded-for': '2.2.2.2' })).status,
    429,
    'a new X-Forwarded-For does not escape the limit',
  );
  await limited.close();
});

test('levels: application, controller and route; one instance on several routes shares its counters', async () => {
  const shared = rateLimit({ max: 2, windowMs: 1000 });
  @Controller('/c', rateLimit({ max: 3, windowMs: 1000, keyGenerator: () => 'controller' }))
  class Limited {
    @Get('/a', shared) a() {
      return 'a';
    }
    @Get('/b', shared) b() {
      return 'b';
    }
    @Get('/free') free() {
      return 'free';
    }
  }
  const s = await start({ controllers: [Limited], middlewares: [rateLimit({ max: 10, windowMs: 1000, keyGenerator: () => 'app' })] });
  assert.is((await get(s.base, '/c/a')).status, 200);
  assert.is((await get(s.base, '/c/b')).status, 200);
  assert.is((await get(s.base, '/c/a')).status, 429, 'route level: the shared instance counted /c/a and /c/b together');
  assert.is((await get(s.base, '/c/free')).status, 429, 'controller level: its 4th request');
  await s.close();

  @Controller('/open')
  class Open {
    @Get('/') index() {
      return 'open';
    }
  }
  const app = await start({ controllers: [Open], middlewares: [rateLimit({ max: 1, windowMs: 1000 })] });
  assert.is((await get(app.base, '/open')).status, 200);
  const denied = await get(app.base, '/open');
  assert.equal([denied.status, denied.headers.get('ratelimit-limit')], [429, '1'], 'application level');
  await app.close();
});

test("stacked limiters: the innermost one's headers win, over the socket and in process", async () => {
  @Controller('/s', rateLimit({ max: 3, windowMs: 1000 }))
  class Stacked {
    @Get('/x', rateLimit({ max: 2, windowMs: 1000 })) x() {
      return 'x';
    }
  }
  for (const transport of ['socket', 'fetch'] as const) {
    const s = await start({ controllers: [Stacked], middlewares: [rateLimit({ max: 10, windowMs: 1000 })] });
    const send = () => (transport === 'socket' ? get(s.base, '/s/x') : getInProcess(s.app, '/s/x'));
    const first = await send();
    assert.equal(
      [first.status, first.headers.get('ratelimit-limit'), first.headers.get('ratelimit-remaining')],
      [200, '2', '1'],
      transport,
    );
    await send();
    const denied = await send();
    assert.equal(
      [denied.status, denied.headers.get('ratelimit-limit'), denied.headers.get('ratelimit-remaining')],
      [429, '2', '0'],
      transport,
    );
    await s.close();
  }
});

test('a custom store with only increment/reset works; reset is estimated as now + windowMs', async () => {
  const counts = new Map<string, number>();
  const store: RateLimitStore = {
    increment: (key) => {
      const n = (counts.get(key) ?? 0) + 1;
      counts.set(key, n);
      return n;
    },
    reset: (key) => {
      counts.delete(key);
    },
  };
  const s = await serve({ max: 1, windowMs: 5000, store });
  const before = Date.now();
  const ok = await get(s.base, '/ping');
  assert.ok(Number(ok.headers.get('ratelimit-reset')) >= seconds(before + 5000));
  const denied = await get(s.base, '/ping');
  assert.equal([denied.status, denied.headers.get('retry-after')], [429, '5']);
  await store.reset('127.0.0.1');
  assert.is((await get(s.base, '/ping')).status, 200);
  await s.close();
});

test("an async store is awaited (the README's typical INCR + EXPIRE store on a fake key-value server)", async () => {
  const windowMs = 1500;
  const kv = new Map<string, { count: number; ttl?: number }>();
  const store: RateLimitStore = {
    async increment(key) {
      const entry = kv.get(key) ?? { count: 0 };
      entry.count++;
      kv.set(key, entry);
      if (entry.count === 1) entry.ttl = Math.ceil(windowMs / 1000);
      return entry.count;
    },
    async reset(key) {
      kv.delete(key);
    },
  };
  const s = await serve({ max: 2, windowMs, store });
  assert.equal(
    [(await get(s.base, '/ping')).status, (await get(s.base, '/ping')).status, (await get(s.base, '/ping')).status],
    [200, 200, 429],
  );
  assert.equal(kv.get('127.0.0.1'), { count: 3, ttl: 2 });
  await s.close();
});

test('a store answering 0 lets the request through uncounted and without headers', async () => {
  const s = await serve({ max: 1, store: { increment: () => 0, reset() {} } });
  const r = await get(s.base, '/ping');
  assert.equal([r.status, r.headers.get('ratelimit-limit')], [200, null]);
  await s.close();
});

test('with the memory store the middleware answers synchronously (no promise on the hot path)', () => {
  const limiter = rateLimit({ max: 1, windowMs: 1000 });
  const recorded: string[] = [];
  const req = {
    headers: new Headers(),
    remoteAddress: '192.0.2.1',
    setResponseHeader: (n: string, v: string) => recorded.push(n, v),
  } as unknown as KilnRequest;
  const next = () => Promise.resolve(new Response());
  assert.is(limiter(req, next), undefined);
  assert.equal(recorded.slice(0, 4), ['RateLimit-Limit', '1', 'RateLimit-Remaining', '0']);
  const denied = limiter(req, next);
  assert.instance(denied, Response);
  assert.is((denied as Response).status, 429);
  const async = rateLimit({ store: { increment: async () => 1, reset() {} } });
  assert.instance(async(req, next), Promise);
});

test('200 concurrent requests against max 50 (memory store): exactly 50 pass', async () => {
  const s = await serve({ max: 50, windowMs: 10_000 });
  const replies = await Promise.all(
    Array.from({ length: 200 }, () =>
      fetch(`${s.base}/ping`).then(async (r) => {
        await r.arrayBuffer();
        return r.status;
      }),
    ),
  );
  const passed = replies.filter((status) => status === 200).length;
  const refused = replies.filter((status) => status === 429).length;
  console.log(`memory store, 200 concurrent vs max 50: ${passed} passed, ${refused} refused`);
  assert.equal([passed, refused], [50, 150]);
  await s.close();
});

function codeOf(create: () => unknown): string | undefined {
  try {
    create();
  } catch (error) {
    assert.instance(error, RateLimitError);
    return (error as RateLimitError).code;
  }
  return undefined;
}

test('options are checked when the limiter is created (KILN201)', () => {
  assert.throws(() => rateLimit({ max: -1 }), /max must be a whole number/);
  assert.throws(() => rateLimit({ max: 1.5 }), /max must be a whole number/);
  assert.throws(() => rateLimit({ windowMs: 0 }), /windowMs must be a positive number/);
  assert.throws(() => rateLimit({ keyGenerator: 'ip' as never }), /keyGenerator must be a function/);
  assert.throws(
    () => rateLimit({ standardHeaders: 'yes' as never }),
    /standardHeaders must be true, false, 'draft-6', 'draft-7' or 'draft-8', got "yes"/,
  );
  assert.throws(() => rateLimit({ name: 'a"b' }), /name must be 1 to 64 printable ASCII characters/);
  assert.throws(() => rateLimit({ ipv6Subnet: 0 }), /ipv6Subnet must be a prefix length from 1 to 128, or false, got 0/);
  assert.throws(
    () =>
      rateLimit({
        store: {
          increment() {
            return 1;
          },
        } as never,
      }),
    /store must have increment\(key\) and reset\(key\)/,
  );
  for (const bad of [
    { max: -1 },
    { windowMs: Number.NaN },
    { handler: 1 },
    { skip: true },
    { trustProxy: 1 },
    { store: null },
    { legacyHeaders: 'x' },
    { name: '' },
    { ipv6Subnet: 129 },
    { standardHeaders: 'draft-9' },
  ]) {
    assert.is(
      codeOf(() => rateLimit(bad as never)),
      'KILN201',
      JSON.stringify(bad),
    );
  }
  assert.type(rateLimit(), 'function');
});

test('a store serves one limiter (KILN202); store options are checked (KILN203)', () => {
  const store = new MemoryStore();
  rateLimit({ store });
  assert.is(
    codeOf(() => rateLimit({ store })),
    'KILN202',
  );
  assert.is(
    codeOf(() => new MemoryStore({ maxKeys: 0 })),
    'KILN203',
  );
  assert.is(
    codeOf(() => new MemoryStore({ cleanupIntervalMs: -1 })),
    'KILN203',
  );
  store.close();
});

test('every error code is documented in the package README', () => {
  const readme = readFileSync(new URL('../../../../packages/rate-limit/README.md', import.meta.url), 'utf8');
  const codes = Object.keys(rateLimitErrorCodes);
  assert.is(codes.length, 13);
  for (const code of codes) assert.ok(readme.includes(`| ${code} |`), `${code} has a row in the README`);
});

test.run();
