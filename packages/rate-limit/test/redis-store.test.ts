import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { Controller, Get } from '@kiln/core';
import {
  rateLimit,
  RateLimitError,
  RedisStore,
  RedisStoreTimeoutError,
  type NodeRedisClientLike,
  type RateLimitStore,
  type RedisClientLike,
} from '@kiln/rate-limit';
import { connectRedis, redisClient, redisUrl } from './support/redis.js';
import { redisServerAvailable, startPrivateRedis } from './support/private-redis.js';
import { withClock } from './support/clock.js';
import { get, limitHeaders, start } from './support/server.js';
import { holdTimers, nextTurn } from '../../../test/support/fake-timers.js';
import { counterContract, storeContract } from './support/store-contract.js';
import { burstAtWindowEndTrace, steadyTrace } from './support/trace.js';
import { MemoryStore, type RateLimitHit } from '@kiln/rate-limit';
import { createClient } from 'redis';

const prefix = `kiln-rl-test:${process.pid}:`;

function serve(options: Parameters<typeof rateLimit>[0]) {
  @Controller('/')
  class Api {
    @Get('/ping') ping() {
      return { ok: true };
    }
  }
  return start({ controllers: [Api], middlewares: [rateLimit(options)] });
}

/** An ioredis-shaped client whose script calls never answer (a Redis that is gone, commands queued). */
const silentClient = (): RedisClientLike => ({
  evalsha: () => new Promise(() => {}),
  eval: () => new Promise(() => {}),
  del: () => new Promise(() => {}),
  zrem: () => new Promise(() => {}),
});

/** An ioredis-shaped client whose script calls fail at once. */
const failingClient = (): RedisClientLike => ({
  evalsha: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')),
  eval: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')),
  del: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')),
  zrem: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')),
});

// ---- What needs no Redis: the client check, the adapters and the unreachable-Redis policy ----

test('RedisStore needs an ioredis or redis client (KILN204); its options are checked (KILN203)', () => {
  assert.throws(
    () => new RedisStore(undefined as never),
    (e: RateLimitError) => e.code === 'KILN204' && /needs \{ client \}/.test(e.message),
  );
  assert.throws(
    () => new RedisStore({ client: {} as never }),
    (e: RateLimitError) => e.code === 'KILN204' && /ioredis client \(evalsha\) or a redis client \(evalSha\)/.test(e.message),
  );
  assert.throws(
    () => new RedisStore({ client: silentClient(), timeoutMs: 0 }),
    (e: RateLimitError) => e.code === 'KILN203',
  );
  assert.throws(
    () => new RedisStore({ client: silentClient(), prefix: 1 as never }),
    (e: RateLimitError) => e.code === 'KILN203',
  );
  assert.throws(
    () => new RedisStore({ client: silentClient(), failOpen: 'no' as never }),
    (e: RateLimitError) => e.code === 'KILN203',
  );
  assert.throws(
    () => new RedisStore({ client: silentClient(), prefix: '{api}:' }),
    (e: RateLimitError) => e.code === 'KILN203' && /must not contain '\{' or '\}'/.test(e.message),
  );
  assert.throws(
    () => new RedisStore({ client: silentClient(), clock: 5 as never }),
    (e: RateLimitError) => e.code === 'KILN203',
  );
});

test('unreachable, default failOpen: the request passes at timeoutMs and not before, uncounted and without headers', async () => {
  const timeoutMs = 4321; // the fake clock holds the timers of this delay
  const clock = holdTimers(timeoutMs);
  try {
    const errors: unknown[] = [];
    const s = await serve({ max: 1, store: new RedisStore({ client: silentClient(), timeoutMs, onError: (e) => errors.push(e) }) });
    for (let i = 0; i < 2; i++) {
      let answered = false;
      const reply = get(s.base, '/ping').finally(() => {
        answered = true;
      });
      await clock.waiting(); // the store is waiting for Redis
      clock.advance(timeoutMs - 1);
      await nextTurn();
      assert.is(answered, false, 'not answered before timeoutMs');
      clock.advance(1);
      const r = await reply;
      assert.is(r.status, 200);
      assert.equal(limitHeaders(r), { limit: null, remaining: null, reset: null, retryAfter: null });
    }
    assert.is(errors.length, 2);
    assert.instance(errors[0], RedisStoreTimeoutError);
    await s.close();
  } finally {
    clock.restore();
  }
});

test("unreachable, failOpen false: refused with the limiter's 429 and its headers", async () => {
  const s = await serve({ max: 5, windowMs: 2000, store: new RedisStore({ client: failingClient(), failOpen: false, onError: () => {} }) });
  const r = await get(s.base, '/ping');
  assert.is(r.status, 429);
  assert.equal(r.json(), { error: 'Too Many Requests', message: 'Rate limit exceeded. Try again in 2 seconds.' });
  assert.equal(limitHeaders(r).remaining, '0');
  assert.equal(limitHeaders(r).retryAfter, '2');
  await s.close();
});

test('a real ioredis client on a closed port: requests end at timeoutMs, uncounted (failOpen default)', async () => {
  const timeoutMs = 4321; // the fake clock holds the timers of this delay
  const clock = holdTimers(timeoutMs);
  const client = new Redis('redis://127.0.0.1:1', { retryStrategy: () => 200 });
  client.on('error', () => {});
  try {
    const store = new RedisStore({ client, timeoutMs, onError: () => {} });
    store.init({ windowMs: 1000, max: 1 });
    const counts = Promise.all([store.increment('a'), store.increment('a'), store.increment('b')]);
    await clock.waiting(); // one timer for every call in flight
    clock.advance(timeoutMs);
    assert.equal(await counts, [0, 0, 0]);
  } finally {
    clock.restore();
    client.disconnect();
  }
});

test('the default onError warns once per outage', async () => {
  const warnings: unknown[][] = [];
  const realWarn = console.warn;
  console.warn = (...args: unknown[]) => {
    warnings.push(args);
  };
  try {
    let healthy = false;
    const client: RedisClientLike = {
      evalsha: () => (healthy ? Promise.resolve([1, 1000]) : Promise.reject(new Error('down'))),
      eval: () => Promise.reject(new Error('down')),
      del: () => Promise.resolve(1),
      zrem: () => Promise.resolve(0),
    };
    const store = new RedisStore({ client });
    store.init({ windowMs: 1000, max: 1 });
    await store.hit('k');
    await store.hit('k');
    assert.is(warnings.length, 1);
    assert.match(String(warnings[0]![0]), /Redis failed; letting requests through/);
    healthy = true;
    assert.is((await store.hit('k')).count, 1);
    healthy = false;
    await store.hit('k');
    assert.is(warnings.length, 2, 'a new outage warns again');
  } finally {
    console.warn = realWarn;
  }
});

test('redis (node-redis) client: evalSha with { keys, arguments }, EVAL when the script is not loaded', async () => {
  const calls: unknown[][] = [];
  const client: NodeRedisClientLike = {
    evalSha: async (sha, options) => {
      calls.push(['evalSha', sha, options]);
      throw new Error('NOSCRIPT No matching script. Please use EVAL.');
    },
    eval: async (script, options) => {
      calls.push(['eval', script.length > 0, options]);
      return [2, 750];
    },
    del: async (key) => {
      calls.push(['del', key]);
      return 1;
    },
    zRem: async (key, member) => {
      calls.push(['zRem', key, member]);
      return 0;
    },
  };
  const store = new RedisStore({ client, prefix: 'p:' });
  store.init({ windowMs: 1000, max: 5 });
  const before = Date.now();
  const hit = await store.hit('k');
  assert.is(hit.count, 2);
  assert.ok(hit.resetTime >= before + 750 && hit.resetTime <= Date.now() + 750);
  assert.is(calls[0]![0], 'evalSha');
  assert.match(String(calls[0]![1]), /^[0-9a-f]{40}$/);
  const { keys, arguments: args } = calls[0]![2] as { keys: string[]; arguments: string[] };
  assert.equal(keys, ['p:{k}']);
  assert.equal(args.slice(0, 2), ['1000', '5']);
  assert.equal(calls[1]!.slice(0, 2), ['eval', true]);
  await store.reset('k');
  assert.equal(calls[2], ['del', 'p:{k}']);
});

// ---- Against a real redis-server ----

const redis = await connectRedis();
if ('skip' in redis) console.log(redis.skip);
const client = 'client' in redis ? redis.client : undefined;
const redisTest = client ? test : test.skip;
// Where a test is not about timeouts: a loaded machine (two suites at a time on the shared Redis)
// can take a call past the default 200 ms, which fails open and lets one request through uncounted.
const patient = { timeoutMs: 5000 };

function redisStore(windowMs: number, max: number, extra: Partial<ConstructorParameters<typeof RedisStore>[0]> = {}) {
  const store = new RedisStore({ client: client!, prefix, ...patient, ...extra });
  store.init({ windowMs, max });
  return store;
}

storeContract(redisTest, 'RedisStore', (windowMs, max) => redisStore(windowMs, max, { clock: () => Date.now() }));

function counterRedisStore(windowMs: number, max: number, extra: Partial<ConstructorParameters<typeof RedisStore>[0]> = {}) {
  const store = new RedisStore({ client: client!, prefix, clock: () => Date.now(), ...patient, ...extra });
  store.init({ windowMs, max, algorithm: 'sliding-window-counter' });
  return store;
}

counterContract(redisTest, 'RedisStore', (windowMs, max) => counterRedisStore(windowMs, max));

redisTest('counter: one short string per key, expiring when the next window ends; memory does not grow with max', () =>
  withClock(1_767_225_601_250, async () => {
    const store = counterRedisStore(1000, 1_000_000, { prefix: `${prefix}counter-shape:` });
    for (let i = 0; i < 300; i++) await store.hit('shape');
    const key = store.keyFor('shape');
    assert.is(await client!.type(key), 'string');
    assert.is(await client!.get(key), '1767225601 0 300', '<window index> <previous> <current>');
    const ttl = await client!.pttl(key);
    assert.ok(ttl > 1500 && ttl <= 1750, `pttl ${ttl}: the end of the next window`);
    const bytes = Number(await client!.memory('USAGE', key, 'SAMPLES', 0));
    console.log(`counter key: MEMORY USAGE ${bytes} bytes after 300 requests at max 1,000,000`);
    assert.ok(bytes <= 200, `MEMORY USAGE ${bytes}`);
  }),
);

const privateRedisTest = client && redisServerAvailable() ? test : test.skip;

privateRedisTest(
  'counter over HTTP: one round trip and at most 3 Redis commands per request (EVALSHA, GET, SET), by INFO commandstats',
  async () => {
    const redis = await startPrivateRedis();
    const storeClient = new Redis(redis.url);
    try {
      // every request asks Redis (the block cache would answer the refused ones: block-cache.test.ts)
      const store = new RedisStore({ client: storeClient, prefix: 'count:', blockCache: false, ...patient });
      const s = await serve({ max: 150, windowMs: 86_400_000, store, algorithm: 'sliding-window-counter', keyGenerator: () => 'client' });
      try {
        await storeClient.ping();
        await redis.admin.config('RESETSTAT');
        const statuses: number[] = [];
        for (let i = 0; i < 200; i++) statuses.push((await get(s.base, '/ping')).status);
        assert.equal([statuses.filter((x) => x === 200).length, statuses.filter((x) => x === 429).length], [150, 50]);
        const info = await redis.admin.info('commandstats');
        const calls = Object.fromEntries([...info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)].map(([, name, n]) => [name, Number(n)]));
        delete calls.info;
        delete calls['config|resetstat'];
        // The first call: NOSCRIPT, then EVAL, which reads Redis's TIME to learn its clock; the other 199 run no TIME.
        assert.equal(calls, { evalsha: 200, eval: 1, time: 1, get: 200, set: 150 }, JSON.stringify(calls));
        const commands = Object.values(calls).reduce((a, b) => a + b, 0);
        console.log(
          `counter: ${commands} Redis commands for 200 requests (150 counted, 50 refused), ${calls.evalsha! + calls.eval!} script calls`,
        );
        assert.is(await redis.admin.get(store.keyFor('client')), `${Math.floor(Number((await redis.admin.time())[0]) / 86_400)} 0 150`);
      } finally {
        await s.close();
      }
    } finally {
      storeClient.disconnect();
      await redis.stop();
    }
  },
);

redisTest('counter: a key already in a later window (a process whose clock estimate is ahead) counts there, never back', async () => {
  const windowMs = 1000;
  const window = 1_767_225_600; // a window index; its start is window × 1000 ms
  let aheadNow = window * windowMs + 500;
  let behindNow = 0;
  const shared = { prefix: `${prefix}skew:`, timeoutMs: 10_000 };
  const ahead = counterRedisStore(windowMs, 10, { ...shared, clock: () => aheadNow });
  const behind = new RedisStore({ client: client!, ...shared, clock: () => behindNow });
  behind.init({ windowMs, max: 10, algorithm: 'sliding-window-counter' });
  for (let i = 0; i < 3; i++) await ahead.hit('k');
  aheadNow = (window + 1) * windowMs + 2; // the next window: 3 previous, 1 current
  await ahead.hit('k');
  behindNow = (window + 1) * windowMs - 3; // 5 ms behind: still the window before, by its clock
  const hit = await behind.hit('k');
  assert.is(await client!.get(ahead.keyFor('k')), `${window + 1} 3 2`, 'counted in the later window, its counts kept');
  assert.is(hit.count, 5, 'the estimate at the start of that window: 3 × 1 + 2');
});

redisTest('counter: a call that timed out while Redis was paused (CLIENT PAUSE) and ran afterwards is taken back', async () => {
  for (const failOpen of [true, false]) {
    const storeClient = redisClient();
    const admin = redisClient();
    const store = new RedisStore({
      client: storeClient,
      prefix: `${prefix}counter-pause-${failOpen}:`,
      timeoutMs: 600,
      failOpen,
      onError: () => {},
    });
    const s = await serve({ max: 3, windowMs: 60_000, store, algorithm: 'sliding-window-counter', keyGenerator: () => 'paused' });
    const waiter = redisClient();
    try {
      await Promise.all([storeClient.ping(), admin.ping(), waiter.ping()]);
      // two before the pause: the second carries the clock estimate learned from the first (no TIME, no deadline)
      assert.equal(limitHeaders(await get(s.base, '/ping')).remaining, '2');
      assert.equal(limitHeaders(await get(s.base, '/ping')).remaining, '1');
      await admin.client('PAUSE', 4000, 'ALL');
      const during = await Promise.all(Array.from({ length: 5 }, () => get(s.base, '/ping')));
      assert.equal(
        during.map((r) => r.status),
        failOpen ? [200, 200, 200, 200, 200] : [429, 429, 429, 429, 429],
      );
      await waiter.ping();
      // the late replies came before this PING's; the take-back they sent runs before the second
      await storeClient.ping();
      await storeClient.ping();
      const [windowIndex, previous, current] = String(await client!.get(store.keyFor('paused'))).split(' ');
      assert.equal(
        [previous, current],
        ['0', '2'],
        `failOpen ${failOpen}: only the two requests made before the pause count (window ${windowIndex})`,
      );
      const after = [await get(s.base, '/ping'), await get(s.base, '/ping')];
      assert.equal(
        after.map((r) => [r.status, limitHeaders(r).remaining]),
        [
          [200, '0'],
          [429, '0'],
        ],
        'the client is not refused for what it did not get',
      );
    } finally {
      await s.close();
      for (const c of [storeClient, admin, waiter]) c.disconnect();
    }
  }
});

redisTest('counter: RedisStore decides exactly as MemoryStore on recorded traces (same counts, same reset times)', async () => {
  const windowMs = 10_000;
  const start = 1_767_225_600_000;
  for (const trace of [steadyTrace('steady', 7, start, windowMs, 30, 8), burstAtWindowEndTrace('bursts', 8, start, windowMs, 20, 8)]) {
    await withClock(start, async (clock) => {
      const memory = new MemoryStore();
      memory.init({ windowMs, max: 20, algorithm: 'sliding-window-counter' });
      const shared = counterRedisStore(windowMs, 20, { prefix: `${prefix}trace-${trace.name}:`, timeoutMs: 10_000 });
      const fromMemory: RateLimitHit[] = [];
      const fromRedis: RateLimitHit[] = [];
      for (const time of trace.times) {
        clock.now = time;
        fromMemory.push(memory.hit('k'));
        fromRedis.push(await shared.hit('k'));
      }
      assert.equal(fromRedis, fromMemory, trace.name);
      assert.ok(fromMemory.some((hit) => hit.count > 20) && fromMemory.some((hit) => hit.count <= 20), 'the trace both counts and refuses');
      memory.close();
    });
  }
});

redisTest('resetKey and resetAll over HTTP (ioredis and node-redis): resetAll deletes exactly the keys of its prefix', async () => {
  const nodeRedis = await createClient({ url: redisUrl }).connect();
  try {
    for (const [name, redisClientUnderTest] of [
      ['ioredis', client!],
      ['redis', nodeRedis],
    ] as const) {
      const own = `${prefix}reset-${name}:`;
      const other = new RedisStore({ client: client!, prefix: `${prefix}other-${name}:`, ...patient });
      other.init({ windowMs: 60_000, max: 1 });
      await other.hit('bystander');
      const limiter = rateLimit({
        max: 1,
        windowMs: 60_000,
        store: new RedisStore({ client: redisClientUnderTest as RedisClientLike, prefix: own, ...patient }),
        keyGenerator: (req) => req.headers.get('x-user') ?? 'anonymous',
      });
      @Controller('/')
      class Login {
        @Get('/login') login() {
          return { ok: true };
        }
      }
      const s = await start({ controllers: [Login], middlewares: [limiter] });
      const login = (user: string) => get(s.base, '/login', { 'x-user': user }).then((r) => r.status);
      assert.equal([await login('alice'), await login('alice'), await login('bob'), await login('bob')], [200, 429, 200, 429], name);
      await limiter.resetKey('alice');
      assert.equal([await login('alice'), await login('bob')], [200, 429], `${name}: resetKey forgot alice only`);
      for (let i = 0; i < 30; i++) await login(`user-${i}`); // more keys than one SCAN page needs
      await limiter.resetAll();
      assert.equal(await client!.keys(`${own}*`), [], `${name}: no key of the prefix is left`);
      assert.equal([await login('alice'), await login('bob')], [200, 200], `${name}: resetAll forgot everyone`);
      assert.is(await client!.exists(other.keyFor('bystander')), 1, `${name}: another prefix is untouched`);
      await s.close();
    }
  } finally {
    await nodeRedis.quit();
  }
});

redisTest('keys live under the prefix as <prefix>{<key>}, a sorted set that expires with the window', async () => {
  const store = redisStore(1500, 2);
  await store.increment('shape');
  await store.increment('shape');
  await store.increment('shape'); // refused, not recorded
  assert.is(store.keyFor('shape'), `${prefix}{shape}`);
  assert.is(await client!.type(`${prefix}{shape}`), 'zset');
  assert.is(await client!.zcard(`${prefix}{shape}`), 2);
  const ttl = await client!.pttl(`${prefix}{shape}`);
  assert.ok(ttl > 1000 && ttl <= 1500, `pttl ${ttl}`);
});

redisTest('the script is reloaded when Redis has forgotten it (SCRIPT FLUSH), for both clients', async () => {
  const store = redisStore(1000, 10);
  assert.is(await store.increment('flush'), 1);
  await client!.script('FLUSH');
  assert.is(await store.increment('flush'), 2);
  const nodeRedisShaped: NodeRedisClientLike = {
    evalSha: (sha, { keys, arguments: args }) => client!.evalsha(sha, keys.length, ...keys, ...args),
    eval: (script, { keys, arguments: args }) => client!.eval(script, keys.length, ...keys, ...args),
    del: (key) => client!.del(key),
    zRem: (key, member) => client!.zrem(key, member),
  };
  await client!.script('FLUSH');
  const viaRedis = new RedisStore({ client: nodeRedisShaped, prefix });
  viaRedis.init({ windowMs: 1000, max: 10 });
  assert.is(await viaRedis.increment('flush'), 3);
});

redisTest('over HTTP: headers exact and truthful with a RedisStore', async () => {
  const s = await serve({ max: 2, windowMs: 2000, store: new RedisStore({ client: client!, prefix: `${prefix}http:`, ...patient }) });
  const before = Date.now();
  const first = await get(s.base, '/ping');
  const after = Date.now();
  assert.equal([first.status, limitHeaders(first).limit, limitHeaders(first).remaining], [200, '2', '1']);
  const reset = Number(limitHeaders(first).reset);
  assert.ok(reset >= Math.ceil((before + 2000 - 25) / 1000) && reset <= Math.ceil((after + 2000 + 25) / 1000));
  assert.is((await get(s.base, '/ping')).status, 200);
  const denied = await get(s.base, '/ping');
  assert.is(denied.status, 429);
  assert.equal([limitHeaders(denied).remaining, limitHeaders(denied).reset, limitHeaders(denied).retryAfter], ['0', String(reset), '2']);
  await s.close();
});

redisTest('over HTTP on a moved clock: a request sent after Retry-After passes, exactly then', () =>
  withClock(1_767_225_600_000, async (clock) => {
    const store = new RedisStore({ client: client!, prefix: `${prefix}http-clock:`, clock: () => Date.now(), ...patient });
    const s = await serve({ max: 2, windowMs: 2000, store });
    assert.is((await get(s.base, '/ping')).status, 200); // t0
    clock.now += 500;
    assert.is((await get(s.base, '/ping')).status, 200);
    const denied = await get(s.base, '/ping');
    assert.equal([denied.status, limitHeaders(denied).reset, limitHeaders(denied).retryAfter], [429, '1767225602', '2']);
    clock.now += 1499;
    assert.is((await get(s.base, '/ping')).status, 429, 't0 + 1999: the first request is still in the window');
    clock.now += 1;
    const again = await get(s.base, '/ping');
    assert.equal([again.status, limitHeaders(again).remaining], [200, '0']);
    await s.close();
  }),
);

redisTest('a command that timed out while Redis was paused (CLIENT PAUSE) is never counted when it resumes', async () => {
  for (const failOpen of [true, false]) {
    const storeClient = redisClient();
    const admin = redisClient();
    // timeoutMs leaves a loaded machine time for the request before the pause; the pause outlasts the five during it
    const store = new RedisStore({
      client: storeClient,
      prefix: `${prefix}pause-${failOpen}:`,
      timeoutMs: 600,
      failOpen,
      onError: () => {},
    });
    const s = await serve({ max: 3, windowMs: 60_000, store, keyGenerator: () => 'paused' });
    const waiter = redisClient();
    try {
      await Promise.all([storeClient.ping(), admin.ping(), waiter.ping()]); // connected before anything is timed
      assert.equal(limitHeaders(await get(s.base, '/ping')).remaining, '2', 'one counted request before the pause');
      await admin.client('PAUSE', 4000, 'ALL');
      // Five requests while Redis holds every command: each gives up after timeoutMs.
      const during = await Promise.all(Array.from({ length: 5 }, () => get(s.base, '/ping')));
      assert.equal(
        during.map((r) => r.status),
        failOpen ? [200, 200, 200, 200, 200] : [429, 429, 429, 429, 429],
      );
      assert.equal(
        during.map((r) => limitHeaders(r).remaining),
        failOpen ? [null, null, null, null, null] : ['0', '0', '0', '0', '0'],
      );
      // Wait for Redis to answer again: a new connection's command is held until the pause ends, and
      // the store's own connection answers a PING only after the script calls queued before it.
      await waiter.ping();
      await storeClient.ping();
      assert.is(
        await client!.zcard(store.keyFor('paused')),
        1,
        `failOpen ${failOpen}: only the request made before the pause is in the log`,
      );
      const after = [await get(s.base, '/ping'), await get(s.base, '/ping'), await get(s.base, '/ping')];
      assert.equal(
        after.map((r) => [r.status, limitHeaders(r).remaining]),
        [
          [200, '1'],
          [200, '0'],
          [429, '0'],
        ],
        'the client is not refused for what it did not get',
      );
    } finally {
      await s.close();
      for (const c of [storeClient, admin, waiter]) c.disconnect();
    }
  }
});

redisTest('200 concurrent requests against max 50 (RedisStore): exactly 50 pass', async () => {
  const s = await serve({
    max: 50,
    windowMs: 10_000,
    store: new RedisStore({ client: client!, prefix: `${prefix}burst:`, timeoutMs: 10_000 }),
  });
  const statuses = await Promise.all(
    Array.from({ length: 200 }, () =>
      fetch(`${s.base}/ping`).then(async (r) => {
        await r.arrayBuffer();
        return r.status;
      }),
    ),
  );
  const passed = statuses.filter((status) => status === 200).length;
  const refused = statuses.filter((status) => status === 429).length;
  console.log(`RedisStore, 200 concurrent vs max 50: ${passed} passed, ${refused} refused`);
  assert.equal([passed, refused], [50, 150]);
  await s.close();
});

async function startChild(env: Record<string, string>): Promise<{ child: ChildProcess; base: string }> {
  const script = fileURLToPath(new URL('./support/redis-app.js', import.meta.url));
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, REDIS_URL: redisUrl, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  return { child, base: `http://127.0.0.1:${JSON.parse(line).port}` };
}

redisTest('two server processes sharing one Redis: the limit holds across both', async () => {
  const env = { RL_PREFIX: `${prefix}cluster:`, RL_MAX: '50', RL_WINDOW_MS: '20000' };
  const [a, b] = await Promise.all([startChild(env), startChild(env)]);
  try {
    // In turn: 30 to A pass, then B gets the 20 left, then both refuse.
    const statusesOf = async (base: string, n: number) => {
      const statuses: number[] = [];
      for (let i = 0; i < n; i++) statuses.push((await get(base, '/ping')).status);
      return statuses;
    };
    const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;
    const fromA = await statusesOf(a.base, 30);
    const fromB = await statusesOf(b.base, 30);
    assert.equal([count(fromA, 200), count(fromB, 200), count(fromB, 429)], [30, 20, 10]);
    assert.is((await get(a.base, '/ping')).status, 429);

    // At once: 100 concurrent requests split over both processes, against a fresh key (both
    // processes remember that 'everyone' is refused: deleting its Redis key would not reach them).
    const burst = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        fetch(`${(i % 2 ? a : b).base}/ping`, { headers: { 'x-key': 'burst' } }).then(async (r) => ({
          status: r.status,
          pid: r.ok ? ((await r.json()) as { pid: number }).pid : await r.arrayBuffer().then(() => 0),
        })),
      ),
    );
    const passed = burst.filter((r) => r.status === 200);
    const pids = new Set(passed.map((r) => r.pid));
    console.log(
      `two processes, 100 concurrent vs max 50: ${passed.length} passed (served by ${pids.size} processes), ${burst.length - passed.length} refused`,
    );
    assert.is(passed.length, 50);
    assert.is(burst.filter((r) => r.status === 429).length, 50);
    assert.is(pids.size, 2);
  } finally {
    for (const { child } of [a, b]) child.stdin!.end();
    await Promise.all([a, b].map(({ child }) => (child.exitCode === null ? once(child, 'exit') : undefined)));
  }
});

redisTest("the README's typical custom store (INCR, then EXPIRE of windowMs rounded up to seconds) works", async () => {
  const windowMs = 1500;
  const store: RateLimitStore = {
    async increment(key) {
      const count = await client!.incr(`${prefix}typical:${key}`);
      if (count === 1) await client!.expire(`${prefix}typical:${key}`, Math.ceil(windowMs / 1000));
      return count;
    },
    async reset(key) {
      await client!.del(`${prefix}typical:${key}`);
    },
  };
  const s = await serve({ max: 2, windowMs, store });
  const statuses = [(await get(s.base, '/ping')).status, (await get(s.base, '/ping')).status, (await get(s.base, '/ping')).status];
  assert.equal(statuses, [200, 200, 429]);
  assert.is(await client!.ttl(`${prefix}typical:127.0.0.1`), 2); // a custom store keeps its own key layout
  await s.close();
});

redisTest('clean up the test keys', async () => {
  const keys = await client!.keys(`${prefix}*`);
  if (keys.length > 0) await client!.del(...keys);
  client!.disconnect();
});

test.run();
