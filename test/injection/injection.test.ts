import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, KilnError, type Injection } from '@kiln/core';
import { overBothTransports, request, start } from '../support/server.js';
import {
  API_KEY,
  AdminController,
  BrokenController,
  CONFIG,
  REGION,
  RequireApiKey,
  SLOW,
  SecureController,
  SlowController,
  UserService,
  UsersController,
  lifecycle,
} from './services.js';

const test = suite('dependency injection');

const values: Injection[] = [
  { token: CONFIG, provide: { greeting: 'Hello' } },
  { token: REGION, provide: 'eu-west' },
  { token: API_KEY, provide: 'k-123' },
];

test('constructor injection several levels deep, with a typed token and a string token', async () => {
  await overBothTransports({ controllers: [UsersController], injections: values }, async (send) => {
    const reply = await send('/users/7');
    assert.is(reply.status, 200);
    assert.equal(reply.json(), { greeting: 'Hello, user 7', region: 'eu-west' });
  });
});

test('shared is one instance across controllers and handlers; local is new per injection point; deep-local renews its dependencies too', async () => {
  const started = await start({ controllers: [UsersController, AdminController], injections: values });
  try {
    const ids = (await request(started.base, '/users')).json();
    const admin = (await request(started.base, '/admin/ids')).json();
    assert.is(admin.users, ids.users, 'UserService is shared by both controllers');
    assert.is(admin.clock, ids.controllerClock, 'Clock is shared by both controllers');
    assert.is(admin.pageSize, 25, 'a constructor parameter with a default value keeps its default');
    assert.is(ids.serviceClock, ids.controllerClock, "the service's repository got the shared Clock");
    assert.is(ids.handlerClock, ids.controllerClock, '@Inject() on a handler gets the shared Clock');
    assert.is.not(ids.localAudit, ids.handlerAudit, 'each LOCAL injection point has its own AuditTrail');
    assert.is(ids.localAuditClock, ids.controllerClock, "a LOCAL instance's own dependencies stay shared");
    assert.is.not(ids.deepAudit, ids.localAudit);
    assert.is.not(ids.deepAuditClock, ids.controllerClock, "a DEEP_LOCAL instance's dependencies are new too");
    assert.is(ids.x, null, 'request bindings still work beside injected parameters');
    assert.is(
      (await request(started.base, '/users?x=1')).json().handlerAudit,
      ids.handlerAudit,
      'handler values are resolved once, not per request',
    );
  } finally {
    await started.close();
  }
});

test('a class middleware gets its dependencies (a symbol token and a service)', async () => {
  await overBothTransports({ controllers: [SecureController], injections: values }, async (send) => {
    const refused = await send('/secure', { headers: { 'x-api-key': 'wrong' } });
    assert.is(refused.status, 401);
    assert.equal(refused.json(), { error: 'Unauthorized', message: 'Bad API key (checked at 2026-11-23T00:00:00.000Z)' });
    const allowed = await send('/secure', { headers: { 'x-api-key': 'k-123' } });
    assert.is(allowed.status, 200);
    assert.equal(allowed.json(), { ok: true });
  });
  assert.ok(RequireApiKey);
});

test('factories, sync and async, are built before listen() resolves', async () => {
  let calls = 0;
  const injections: Injection[] = [
    ...values.filter((v) => v.token !== CONFIG),
    { token: CONFIG, factory: () => ({ greeting: `Hi #${++calls}` }) },
    {
      token: SLOW,
      factory: async () => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        return { ready: true };
      },
    },
  ];
  await overBothTransports({ controllers: [SlowController, UsersController], injections }, async (send) => {
    assert.equal((await send('/slow')).json(), { ready: true });
    assert.equal((await send('/users/1')).json(), { greeting: 'Hi #1, user 1', region: 'eu-west' });
  });
  assert.is(calls, 1, 'a factory is called once');
});

test('an async factory that rejects makes listen() reject, naming its token (KILN021)', async () => {
  const app = createServer({
    controllers: [SlowController],
    injections: [
      {
        token: SLOW,
        factory: async () => {
          throw new Error('database down');
        },
      },
    ],
  });
  try {
    await app.listen(0, '127.0.0.1');
    assert.unreachable('listen should reject');
  } catch (error) {
    assert.instance(error, KilnError);
    assert.is((error as KilnError).code, 'KILN021');
    assert.is((error as Error).message, 'The factory of InjectionToken(SLOW) rejected: database down');
  }
  await app.close();
});

test('an onInit() that rejects makes listen() and fetch() reject with KILN022, naming the service and keeping the cause', async () => {
  const failureOf = async (start: () => Promise<unknown>): Promise<KilnError> => {
    try {
      await start();
    } catch (error) {
      return error as KilnError;
    }
    throw new Error('the start should have failed');
  };
  const created = createServer({ controllers: [BrokenController] });
  const listened = await failureOf(() => created.listen(0, '127.0.0.1'));
  assert.instance(listened, KilnError);
  assert.is(listened.code, 'KILN022');
  assert.is(listened.message, 'The onInit() of BrokenConnection failed: Connection is closed.');
  assert.instance(listened.cause, Error);
  assert.is((listened.cause as Error).message, 'Connection is closed.');
  const fetched = await failureOf(() => created.fetch(new Request('http://localhost/broken')));
  assert.is(fetched, listened, 'fetch() rejects with the same error');
  await created.close();

  // A value registered in injections is named by its token; a hook that throws at once is the same failure.
  const registered = createServer({
    controllers: [SlowController],
    injections: [
      { token: SLOW, provide: { ready: true } },
      {
        token: 'database',
        provide: {
          onInit() {
            throw new TypeError('no route to host');
          },
        },
      },
    ],
  });
  const thrown = await failureOf(() => registered.listen(0, '127.0.0.1'));
  assert.equal([thrown.code, thrown.message], ['KILN022', "The onInit() of 'database' failed: no route to host"]);
  assert.instance(thrown.cause, TypeError);
  await registered.close();
});

test('registering a class under its own token replaces the service everywhere (how tests use fakes)', async () => {
  const fake = { id: 99, greet: (id: number) => `fake greeting for ${id}` };
  const injections: Injection[] = [...values, { token: UserService, provide: fake }];
  await overBothTransports({ controllers: [UsersController, AdminController], injections }, async (send) => {
    assert.equal((await send('/users/3')).json(), { greeting: 'fake greeting for 3', region: 'eu-west' });
    assert.is((await send('/admin/ids')).json().users, 99);
  });
});

test('onInit runs in dependency order and is awaited before listen() resolves; onClose runs in reverse on close()', async () => {
  lifecycle.length = 0;
  const app = createServer({ controllers: [UsersController], injections: values });
  assert.equal(lifecycle, [], 'nothing is initialised before the app starts');
  await app.listen(0, '127.0.0.1');
  assert.equal(lifecycle, ['init:UserRepository', 'init:UserService']);
  await app.close();
  assert.equal(lifecycle, ['init:UserRepository', 'init:UserService', 'close:UserService', 'close:UserRepository']);
});

test('close() is bounded by shutdownTimeout, hooks included: a hung onClose() is logged by name and abandoned, the hooks after it still run (issue 34, item 11)', async () => {
  class ConnectionPool {
    closed = false;
    onClose() {
      this.closed = true;
    }
  }
  class HungRedisConnection {
    called = false;
    onClose() {
      this.called = true;
      return new Promise(() => {}); // client.quit() with the Redis server gone: never settles
    }
  }
  const pool = new ConnectionPool();
  const hung = new HungRedisConnection();
  const lines: Record<string, any>[] = [];
  const app = createServer({
    controllers: [UsersController],
    // Registered values close in reverse: the hung connection first, then the pool.
    injections: [...values, { token: ConnectionPool, provide: pool }, { token: HungRedisConnection, provide: hung }],
    shutdownTimeout: 300,
    logger: { destination: { write: (line: string) => void lines.push(JSON.parse(line)) } },
  });
  const { port } = await app.listen(0, '127.0.0.1');
  assert.is((await request(`http://127.0.0.1:${port}`, '/users/3')).status, 200);
  await app.close();
  assert.ok(hung.called);
  assert.ok(pool.closed, 'the hook after the hung one still ran');
  const abandoned = lines.filter((line) => line.hook === 'HungRedisConnection.onClose()');
  assert.equal(
    abandoned.map((line) => [line.level, line.msg, line.shutdownTimeout]),
    [[50, 'HungRedisConnection.onClose() was still running 300 ms after close() began: abandoned', 300]],
  );
  assert.is(lines.filter((line) => line.hook !== undefined).length, 1, 'only the hung hook is named');
});

test('app.fetch without listen(): the first request waits for onInit (UserRepository takes 20 ms), then is answered', async () => {
  lifecycle.length = 0;
  const app = createServer({ controllers: [UsersController], injections: values });
  const reply = await app.fetch(new Request('http://localhost/users/3'));
  assert.equal(lifecycle, ['init:UserRepository', 'init:UserService']);
  assert.is(reply.status, 200);
  assert.equal(await reply.json(), { greeting: 'Hello, user 3', region: 'eu-west' });
  await app.close();
});

test('tokens nobody registered refuse createServer with one error listing every problem (KILN020)', () => {
  try {
    createServer({ controllers: [UsersController, SecureController], injections: [{ token: CONFIG, provide: { greeting: 'x' } }] });
    assert.unreachable('createServer should throw');
  } catch (error) {
    assert.instance(error, KilnError);
    assert.is((error as KilnError).code, 'KILN020');
    assert.is(
      (error as Error).message,
      'Dependency injection failed:\n' +
        "  - 'region' is not registered in createServer({ injections }) (needed by UsersController constructor parameter 'region')\n" +
        "  - Symbol(api key) is not registered in createServer({ injections }) (needed by UsersController constructor parameter 'apiKey')\n" +
        "  - Symbol(api key) is not registered in createServer({ injections }) (needed by RequireApiKey constructor parameter 'apiKey')",
    );
  }
});

test('a malformed injections entry is refused at createServer', () => {
  assert.throws(
    () => createServer({ controllers: [], injections: [{ token: 'x' } as unknown as Injection] }),
    (error: Error) =>
      error instanceof KilnError &&
      error.message === "Dependency injection failed:\n  - injections[0] ('x') has neither provide nor factory",
  );
});

test.run();
