// session(): one contract run against every store (memory, Redis through ioredis and node-redis,
// the sealed cookie) over a socket on 127.0.0.1 — a session kept across requests, regenerate()
// changing the id (fixation), destroy(), rolling and fixed expiry, forged and tampered cookies read
// as empty sessions — then what is particular to each: the memory store's bound, a Redis restart,
// the sealed cookie's limits.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import {
  Controller,
  CookieSessionStore,
  Get,
  HttpError,
  KilnError,
  MemorySessionStore,
  Post,
  Query,
  RedisSessionStore,
  Req,
  createServer,
  csrf,
  secureHeaders,
  session,
  type KilnRequest,
  type SessionOptions,
} from '@kiln/core';
import { rateLimit } from '@kiln/rate-limit';
import { freePort } from '../support/free-port.js';
import { redisInstalled, startRedisServer } from '../support/redis-server.js';
import { request, start, type Reply } from '../support/server.js';

declare module '@kiln/core' {
  interface SessionData {
    userId: string;
    visits: number;
    note: string;
  }
}

const secrets = ['a-session-secret-of-at-least-32-characters'];

@Controller('/s')
class SessionController {
  @Get('/visit') visit(@Req() req: KilnRequest) {
    const visits = (req.session.get('visits') ?? 0) + 1;
    req.session.set('visits', visits);
    return { visits, user: req.session.get('userId') ?? null, id: req.session.id };
  }
  @Get('/peek') peek(@Req() req: KilnRequest) {
    return {
      visits: req.session.get('visits') ?? null,
      user: req.session.get('userId') ?? null,
      isNew: req.session.isNew,
      id: req.session.id,
    };
  }
  @Post('/login') login(@Req() req: KilnRequest, @Query('user') user: string) {
    const before = req.session.id;
    req.session.regenerate();
    req.session.set('userId', user);
    return { before, after: req.session.id };
  }
  @Post('/logout') logout(@Req() req: KilnRequest) {
    req.session.destroy();
    return { out: true };
  }
  @Post('/note') note(@Req() req: KilnRequest, @Query('size') size: number) {
    req.session.set('note', 'n'.repeat(size));
    return { size };
  }
  @Get('/fail') fail(@Req() req: KilnRequest) {
    req.session.set('visits', 100);
    throw new HttpError(409, 'Conflict after writing');
  }
}

@Controller('/plain')
class PlainController {
  @Get('/session') read(@Req() req: KilnRequest) {
    return { id: req.session.id };
  }
}

/** The `name=value` of each Set-Cookie of a reply, by name ('' for a deleted one). */
function cookiesOf(reply: Reply): Map<string, { pair: string; line: string }> {
  return new Map(
    reply.headers.getSetCookie().map((line) => {
      const pair = line.slice(0, line.indexOf(';'));
      return [pair.slice(0, pair.indexOf('=')), { pair, line }];
    }),
  );
}

function sidOf(reply: Reply): string {
  const cookie = cookiesOf(reply).get('sid');
  assert.ok(cookie !== undefined, `a sid cookie: ${reply.headers.getSetCookie().join(' | ')}`);
  return cookie!.pair;
}

type StoreFactory = () => SessionOptions['store'];

function sessionContract(label: string, makeStore: StoreFactory, serverSide: boolean): void {
  const Contract = suite(`session contract: ${label}`);
  const serve = (options: Partial<SessionOptions> = {}) =>
    start({ controllers: [SessionController], middlewares: [session({ secrets, store: makeStore(), ...options })], onError: () => {} });

  Contract(
    'a session is kept across requests through its cookie; a request without one starts empty and sets none until something is stored',
    async () => {
      const server = await serve();
      try {
        const peek = await request(server.base, '/s/peek');
        assert.equal({ ...peek.json(), id: undefined }, { visits: null, user: null, isNew: true, id: undefined });
        assert.equal(peek.headers.getSetCookie(), [], 'nothing stored, no cookie');
        const first = await request(server.base, '/s/visit');
        const cookie = sidOf(first);
        assert.match(cookiesOf(first).get('sid')!.line, /; Max-Age=86400; Path=\/; HttpOnly; SameSite=Lax$/);
        const second = await request(server.base, '/s/visit', { headers: { cookie } });
        assert.is(second.json().visits, 2);
        assert.is(second.json().id, first.json().id);
        const third = await request(server.base, '/s/visit', { headers: { cookie: serverSide ? cookie : sidOf(second) } });
        assert.is(third.json().visits, 3);
      } finally {
        await server.close();
      }
    },
  );

  Contract('regenerate() on login: a new id, a new cookie; the id from before (a planted one) no longer carries the login', async () => {
    const server = await serve();
    try {
      const planted = sidOf(await request(server.base, '/s/visit'));
      const login = await request(server.base, '/s/login?user=ada', { method: 'POST', headers: { cookie: planted } });
      const { before, after } = login.json();
      assert.is.not(before, after);
      const fresh = sidOf(login);
      assert.is.not(fresh, planted);
      const mine = await request(server.base, '/s/peek', { headers: { cookie: fresh } });
      assert.equal({ ...mine.json() }, { visits: null, user: 'ada', isNew: false, id: after });
      const theirs = await request(server.base, '/s/peek', { headers: { cookie: planted } });
      assert.is(theirs.json().user, null, 'the planted cookie is not logged in');
      if (serverSide) assert.is(theirs.json().isNew, true, 'the old id was deleted from the store');
    } finally {
      await server.close();
    }
  });

  Contract('destroy() on logout clears the cookie; a server store forgets the session', async () => {
    const server = await serve();
    try {
      const cookie = sidOf(await request(server.base, '/s/login?user=ada', { method: 'POST' }));
      const logout = await request(server.base, '/s/logout', { method: 'POST', headers: { cookie } });
      assert.is(logout.status, 200);
      assert.match(
        cookiesOf(logout).get('sid')!.line,
        /^sid=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=\/; HttpOnly; SameSite=Lax$/,
      );
      if (serverSide) assert.equal((await request(server.base, '/s/peek', { headers: { cookie } })).json().user, null);
    } finally {
      await server.close();
    }
  });

  Contract('a forged, tampered, truncated or garbage cookie is a new empty session (200), never a 500', async () => {
    const server = await serve();
    try {
      const real = sidOf(await request(server.base, '/s/login?user=ada', { method: 'POST' }));
      const value = real.slice('sid='.length);
      const forged = [
        `sid=${value.slice(0, -2)}${value.endsWith('AA') ? 'BB' : 'AA'}`,
        `sid=${value.slice(0, 20)}`,
        `sid=x${value}`,
        'sid=',
        'sid=not-a-session',
        `sid=${'A'.repeat(43)}.${'A'.repeat(43)}`,
        `sid=${'%ZZ'.repeat(10)}`,
        `sid=${'a'.repeat(6000)}`,
        'sid=__proto__',
        `sid=${encodeURIComponent('{"i":"x","e":99999999999999,"d":{"userId":"admin"}}')}`,
      ];
      for (const cookie of forged) {
        const reply = await request(server.base, '/s/peek', { headers: { cookie } });
        assert.is(reply.status, 200, cookie.slice(0, 60));
        assert.equal({ ...reply.json(), id: undefined }, { visits: null, user: null, isNew: true, id: undefined }, cookie.slice(0, 60));
      }
    } finally {
      await server.close();
    }
  });

  Contract('rolling (the default) renews the expiry on every request; rolling: false keeps the first one', async () => {
    const rollingServer = await serve({ maxAge: 600 });
    try {
      const cookie = sidOf(await request(rollingServer.base, '/s/visit'));
      const peek = await request(rollingServer.base, '/s/peek', { headers: { cookie } });
      assert.match(cookiesOf(peek).get('sid')!.line, /; Max-Age=600;/, 'an unchanged session is renewed');
    } finally {
      await rollingServer.close();
    }
    const fixed = await serve({ maxAge: 600, rolling: false });
    try {
      const cookie = sidOf(await request(fixed.base, '/s/visit'));
      const peek = await request(fixed.base, '/s/peek', { headers: { cookie } });
      assert.equal(peek.headers.getSetCookie(), [], 'not renewed');
      assert.is(peek.json().visits, 1);
    } finally {
      await fixed.close();
    }
  });

  Contract('an expired session is a new empty one', async () => {
    const server = await serve({ maxAge: 1 });
    try {
      const cookie = sidOf(await request(server.base, '/s/login?user=ada', { method: 'POST' }));
      assert.is((await request(server.base, '/s/peek', { headers: { cookie } })).json().user, 'ada');
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const expired = await request(server.base, '/s/peek', { headers: { cookie } });
      assert.is(expired.status, 200);
      assert.is(expired.json().user, null);
      assert.is(expired.json().isNew, true);
    } finally {
      await server.close();
    }
  });

  Contract('a route that throws after writing still saves the session; its answer carries the cookie', async () => {
    const server = await serve();
    try {
      const failed = await request(server.base, '/s/fail');
      assert.is(failed.status, 409);
      const cookie = sidOf(failed);
      assert.is((await request(server.base, '/s/peek', { headers: { cookie } })).json().visits, 100);
    } finally {
      await server.close();
    }
  });

  Contract.run();
}

// ---- Redis: a server of the test's own, so that it can be restarted ----

const redisAvailable = redisInstalled();

// Started before any suite is queued: uvu starts running queued suites at the first await.
const port = redisAvailable ? await freePort() : 0;
let redis = redisAvailable ? await startRedisServer(port) : undefined;
const io = redisAvailable ? new Redis(port, '127.0.0.1', { retryStrategy: () => 50, maxRetriesPerRequest: 50 }) : undefined;
io?.on('error', () => {});
const nodeRedis = redisAvailable ? createClient({ url: `redis://127.0.0.1:${port}`, socket: { reconnectStrategy: () => 50 } }) : undefined;
nodeRedis?.on('error', () => {});
await nodeRedis?.connect();

sessionContract('memory', () => new MemorySessionStore(), true);
sessionContract('sealed cookie', () => new CookieSessionStore(), false);

if (io !== undefined && nodeRedis !== undefined) {
  sessionContract('Redis (ioredis)', () => new RedisSessionStore({ client: io, prefix: 'io:' }), true);
  sessionContract('Redis (node-redis)', () => new RedisSessionStore({ client: nodeRedis, prefix: 'node:' }), true);

  const RedisOnly = suite('session: Redis');
  RedisOnly('the session is one key with a TTL of maxAge; touch moves the TTL', async () => {
    const server = await start({
      controllers: [SessionController],
      middlewares: [session({ secrets, maxAge: 300, store: new RedisSessionStore({ client: io, prefix: 'ttl:' }) })],
    });
    try {
      const visit = await request(server.base, '/s/visit');
      const key = `ttl:${visit.json().id}`;
      assert.equal(await io.keys('ttl:*'), [key]);
      const ttl = await io.pttl(key);
      assert.ok(ttl > 290_000 && ttl <= 300_000, String(ttl));
      await io.pexpire(key, 5000);
      await request(server.base, '/s/peek', { headers: { cookie: sidOf(visit) } });
      assert.ok((await io.pttl(key)) > 290_000, 'a rolling request moved the TTL back to maxAge');
    } finally {
      await server.close();
    }
  });
  RedisOnly(
    'a Redis restart (no persistence) forgets the sessions: their cookies read as new empty sessions, and new ones work',
    async () => {
      const server = await start({
        controllers: [SessionController],
        middlewares: [session({ secrets, store: new RedisSessionStore({ client: io, prefix: 'restart:' }) })],
      });
      try {
        const cookie = sidOf(await request(server.base, '/s/login?user=ada', { method: 'POST' }));
        assert.is((await request(server.base, '/s/peek', { headers: { cookie } })).json().user, 'ada');
        redis!.kill('SIGKILL');
        await once(redis!, 'exit');
        redis = await startRedisServer(port);
        await io.ping();
        const after = await request(server.base, '/s/peek', { headers: { cookie } });
        assert.is(after.status, 200);
        assert.equal({ ...after.json(), id: undefined }, { visits: null, user: null, isNew: true, id: undefined });
        const again = sidOf(await request(server.base, '/s/login?user=bob', { method: 'POST' }));
        assert.is((await request(server.base, '/s/peek', { headers: { cookie: again } })).json().user, 'bob');
      } finally {
        await server.close();
      }
    },
  );

  RedisOnly.after(async () => {
    io.disconnect();
    await nodeRedis.quit().catch(() => {});
    redis?.kill('SIGTERM');
  });
  RedisOnly.run();
} else console.log('session: Redis stores not tested (no redis-server on the PATH)');

// ---- What each store has of its own, and composition ----

const Particular = suite('session');

Particular('the memory store is bounded: past maxSessions the least recently used go first', async () => {
  const store = new MemorySessionStore({ maxSessions: 20 });
  const server = await start({ controllers: [SessionController], middlewares: [session({ secrets, store })] });
  try {
    const kept = sidOf(await request(server.base, '/s/visit'));
    for (let i = 0; i < 60; i++) {
      await request(server.base, '/s/visit');
      // the first session stays recently used
      if (i % 5 === 0) await request(server.base, '/s/peek', { headers: { cookie: kept } });
    }
    assert.ok(store.size <= 20, String(store.size));
    assert.is((await request(server.base, '/s/peek', { headers: { cookie: kept } })).json().visits, 1);
  } finally {
    await server.close();
  }
});

Particular('the sealed cookie holds the session encrypted (nothing readable), and refuses to grow past 4 KB with KILN085', async () => {
  const reported: unknown[] = [];
  const server = await start({
    controllers: [SessionController],
    middlewares: [session({ secrets, store: new CookieSessionStore() })],
    onError: (error) => reported.push(error),
  });
  try {
    const login = await request(server.base, '/s/login?user=ada-lovelace', { method: 'POST' });
    const cookie = sidOf(login);
    assert.not.match(decodeURIComponent(cookie), /ada-lovelace|userId/);
    assert.is((await request(server.base, '/s/note?size=2000', { method: 'POST', headers: { cookie } })).status, 200);
    const big = await request(server.base, '/s/note?size=5000', { method: 'POST', headers: { cookie } });
    assert.is(big.status, 500);
    assert.is((reported[0] as KilnError).code, 'KILN085');
    // a secret rotated in: the old cookie still opens
    const rotated = await start({
      controllers: [SessionController],
      middlewares: [session({ secrets: ['a-newer-session-secret-of-32-characters!', ...secrets], store: new CookieSessionStore() })],
    });
    try {
      assert.is((await request(rotated.base, '/s/peek', { headers: { cookie } })).json().user, 'ada-lovelace');
    } finally {
      await rotated.close();
    }
    const dropped = await start({
      controllers: [SessionController],
      middlewares: [session({ secrets: ['a-newer-session-secret-of-32-characters!'], store: new CookieSessionStore() })],
    });
    try {
      assert.is((await request(dropped.base, '/s/peek', { headers: { cookie } })).json().user, null);
    } finally {
      await dropped.close();
    }
  } finally {
    await server.close();
  }
});

Particular('over HTTPS the cookie is __Host-sid, Secure (app.fetch with an https URL)', async () => {
  const app = createServer({ controllers: [SessionController], middlewares: [session({ secrets })] });
  const reply = await app.fetch(new Request('https://shop.example/s/visit'));
  const line = reply.headers.getSetCookie()[0]!;
  assert.match(line, /^__Host-sid=[^;]+; Max-Age=86400; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
  const again = await app.fetch(new Request('https://shop.example/s/visit', { headers: { cookie: line.slice(0, line.indexOf(';')) } }));
  assert.is((await again.json()).visits, 2);
});

Particular('req.session without session() on the route is KILN084 (a 500 naming the route); bad options are KILN084/KILN083', async () => {
  const reported: Error[] = [];
  const server = await start({ controllers: [PlainController], onError: (error) => reported.push(error as Error) });
  try {
    assert.is((await request(server.base, '/plain/session')).status, 500);
    assert.is((reported[0] as KilnError).code, 'KILN084');
    assert.is(
      reported[0]!.message,
      "req.session needs session() among the middlewares of GET /plain/session (the app's, its controller's or its own)",
    );
  } finally {
    await server.close();
  }
  const codeOf = (make: () => unknown) => {
    try {
      make();
    } catch (error) {
      return (error as KilnError).code;
    }
    return 'none';
  };
  assert.is(
    codeOf(() => session({ secrets: 'short' })),
    'KILN083',
  );
  assert.is(
    codeOf(() => session({ secrets, maxAge: 1.5 })),
    'KILN084',
  );
  assert.is(
    codeOf(() => session({ secrets, store: {} as never })),
    'KILN084',
  );
  assert.is(
    codeOf(() => session({ secrets, cookie: { name: '__Host-sid', domain: 'example.com' } })),
    'KILN082',
  );
  assert.is(
    codeOf(() => new RedisSessionStore({} as never)),
    'KILN084',
  );
  assert.is(
    codeOf(() => new MemorySessionStore({ maxSessions: 0 })),
    'KILN084',
  );
});

Particular('composes with secureHeaders, a limiter and csrf: a cross-site login is refused and creates no session', async () => {
  const server = await start({
    controllers: [SessionController],
    middlewares: [secureHeaders(), rateLimit({ max: 50 }), session({ secrets }), csrf()],
  });
  try {
    const refused = await request(server.base, '/s/login?user=mallory', { method: 'POST', headers: { 'sec-fetch-site': 'cross-site' } });
    assert.is(refused.status, 403);
    assert.equal(refused.headers.getSetCookie(), []);
    assert.is(refused.headers.get('x-frame-options'), 'DENY');
    const allowed = await request(server.base, '/s/login?user=ada', { method: 'POST', headers: { 'sec-fetch-site': 'same-origin' } });
    assert.is(allowed.status, 200);
    assert.is(allowed.headers.get('ratelimit-limit'), '50');
    assert.ok(sidOf(allowed));
  } finally {
    await server.close();
  }
});

Particular.run();
