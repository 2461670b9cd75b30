// createServer({ health }) over real HTTP on 127.0.0.1: readiness turns 503 the moment close()
// starts while in-flight requests finish, fails with a check and recovers, runs its checks at most
// once per interval; liveness stays 200; every answer while closing carries Connection: close; the
// endpoints skip the application middlewares and the OpenAPI document unless asked.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, createServer, Get, requestLogger, type LogDestination } from '@kiln/core';
import { rateLimit } from '@kiln/rate-limit';
import { raw } from '../support/raw.js';
import { request, requestInProcess, start } from '../support/server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

@Controller('/work')
class WorkController {
  @Get('/slow')
  async slow() {
    await sleep(400);
    return { finished: true };
  }
  @Get('/quick')
  quick() {
    return { quick: true };
  }
}

function memoryDestination(): LogDestination & { lines: Record<string, any>[] } {
  const lines: Record<string, any>[] = [];
  return { lines, write: (line: string) => void lines.push(JSON.parse(line)) };
}

const Health = suite('health and readiness');

Health(
  'readiness answers 503 from the moment close() starts, in-flight requests finish, liveness stays 200, every answer says Connection: close',
  async () => {
    // The three requests below must arrive within drainDelay: generous, for a loaded CI machine.
    const server = await start({ controllers: [WorkController], health: { drainDelay: 1_500 }, logger: { level: 'silent' } });
    const before = await request(server.base, '/readyz');
    assert.is(before.status, 200);
    assert.equal(before.json(), { status: 'ready', checks: {} });
    assert.is(before.headers.get('connection'), 'keep-alive');
    const inFlight = request(server.base, '/work/slow');
    await sleep(50);
    const closing = server.close();
    const during = await request(server.base, '/readyz');
    assert.is(during.status, 503);
    assert.equal(during.json(), { error: 'Service Unavailable', message: 'The server is shutting down' });
    assert.is(during.headers.get('connection'), 'close');
    const live = await request(server.base, '/livez');
    assert.is(live.status, 200);
    assert.equal(live.json(), { status: 'ok' });
    assert.is(live.headers.get('connection'), 'close');
    const other = await request(server.base, '/work/quick');
    assert.is(other.status, 200);
    assert.is(other.headers.get('connection'), 'close');
    const finished = await inFlight;
    assert.is(finished.status, 200);
    assert.equal(finished.json(), { finished: true });
    await closing;
  },
);

Health('a failing check answers 503 naming it, and readiness recovers when it passes again', async () => {
  let healthy = true;
  let calls = 0;
  const destination = memoryDestination();
  const server = await start({
    controllers: [WorkController],
    health: {
      checks: {
        redis: () => {
          calls++;
          if (!healthy) throw new Error('connection refused');
        },
        disk: { check: () => true, timeout: 1_000 },
      },
      interval: 150,
    },
    logger: { destination, pino: false },
  });
  try {
    const ready = await request(server.base, '/readyz');
    assert.is(ready.status, 200);
    assert.equal(ready.json(), { status: 'ready', checks: { redis: 'up', disk: 'up' } });
    healthy = false;
    await sleep(200);
    const failing = await request(server.base, '/readyz');
    assert.is(failing.status, 503);
    assert.equal(failing.json(), {
      error: 'Service Unavailable',
      message: 'A readiness check failed: redis',
      data: { checks: { redis: 'down', disk: 'up' } },
    });
    const line = destination.lines.find((entry) => entry.msg === 'readiness check failed');
    assert.equal([line?.check, line?.reason], ['redis', 'Error: connection refused']);
    // liveness does not depend on the checks
    assert.is((await request(server.base, '/livez')).status, 200);
    healthy = true;
    await sleep(200);
    const recovered = await request(server.base, '/readyz');
    assert.is(recovered.status, 200);
    assert.is(calls, 3);
  } finally {
    await server.close();
  }
});

Health(
  'checks run at most once per interval, whatever the request rate; a check past its timeout fails and its signal aborts',
  async () => {
    let calls = 0;
    let abortedWith = '';
    const server = await start({
      controllers: [WorkController],
      health: {
        checks: {
          upstream: {
            check: (signal) =>
              new Promise((_resolve, reject) => {
                calls++;
                signal.addEventListener('abort', () => {
                  abortedWith = (signal.reason as Error).name;
                  reject(signal.reason);
                });
              }),
            timeout: 80,
          },
        },
        interval: 60_000,
      },
      logger: { level: 'silent' },
    });
    try {
      const replies = await Promise.all(Array.from({ length: 40 }, () => request(server.base, '/readyz')));
      assert.equal(new Set(replies.map((reply) => reply.status)), new Set([503]));
      assert.equal(replies[0]!.json().message, 'A readiness check failed: upstream');
      const more = await Promise.all(Array.from({ length: 20 }, () => request(server.base, '/readyz')));
      assert.equal(new Set(more.map((reply) => reply.status)), new Set([503]));
      assert.is(calls, 1, 'one run for 60 probes within the interval');
      assert.is(abortedWith, 'TimeoutError');
    } finally {
      await server.close();
    }
  },
);

Health('the endpoints skip the rate limiter and requestLogger unless health.middlewares is true', async () => {
  const destination = memoryDestination();
  const middlewares = [requestLogger(), rateLimit({ max: 1, windowMs: 60_000 })];
  const server = await start({ controllers: [WorkController], middlewares, health: {}, logger: { destination, pino: false } });
  try {
    for (let i = 0; i < 3; i++) {
      const reply = await request(server.base, '/readyz');
      assert.is(reply.status, 200);
      assert.is(reply.headers.get('ratelimit-limit'), null);
    }
    assert.is((await request(server.base, '/livez')).status, 200);
    assert.equal(destination.lines, [], 'no access line for a probe');
  } finally {
    await server.close();
  }
  const counted = await start({
    controllers: [WorkController],
    middlewares: [requestLogger(), rateLimit({ max: 1, windowMs: 60_000 })],
    health: { middlewares: true },
    logger: { destination, pino: false },
  });
  try {
    const first = await request(counted.base, '/readyz');
    assert.is(first.status, 200);
    assert.is(first.headers.get('ratelimit-limit'), '1');
    assert.is((await request(counted.base, '/readyz')).status, 429);
    assert.equal(
      destination.lines.map((entry) => [entry.req?.url, entry.res?.statusCode]),
      [
        ['/readyz', 200],
        ['/readyz', 429],
      ],
    );
  } finally {
    await counted.close();
  }
});

const document = {
  openapi: '3.1.0',
  info: { title: 'Work', version: '1' },
  paths: {
    '/work/slow': { get: { responses: { '200': { description: 'ok' } } } },
    '/work/quick': { get: { responses: { '200': { description: 'ok' } } } },
  },
};

Health('the endpoints appear in the served OpenAPI document only with health.openapi', async () => {
  const hidden = createServer({ controllers: [WorkController], health: {}, docs: { document } });
  const hiddenDocument = (await requestInProcess(hidden, '/openapi.json')).json();
  assert.equal(Object.keys(hiddenDocument.paths).sort(), ['/work/quick', '/work/slow']);
  const shown = createServer({ controllers: [WorkController], health: { openapi: true, liveness: '/health/live' }, docs: { document } });
  const shownDocument = (await requestInProcess(shown, '/openapi.json')).json();
  assert.equal(Object.keys(shownDocument.paths).sort(), ['/health/live', '/readyz', '/work/quick', '/work/slow']);
  assert.equal(Object.keys(shownDocument.paths['/readyz'].get.responses), ['200', '503']);
  assert.is((await requestInProcess(shown, '/health/live')).status, 200);
});

Health('app.fetch: the same answers in process, and 503 once close() starts', async () => {
  const app = createServer({ controllers: [WorkController], health: { readiness: '/ready', liveness: false } });
  const ready = await requestInProcess(app, '/ready');
  assert.is(ready.status, 200);
  assert.is((await requestInProcess(app, '/livez')).status, 404);
  await app.close();
  const closed = await requestInProcess(app, '/ready');
  assert.is(closed.status, 503);
  assert.equal(closed.json(), { error: 'Service Unavailable', message: 'The server is shutting down' });
});

Health('HEAD on the endpoints, and a probe over a kept-alive connection while closing', async () => {
  const server = await start({ controllers: [WorkController], health: { drainDelay: 200 }, logger: { level: 'silent' } });
  const port = Number(new URL(server.base).port);
  const head = await raw(port, 'HEAD /readyz HTTP/1.1\r\nHost: x\r\n\r\n', { responses: 1 });
  assert.equal(head.statuses, [200]);
  const closing = server.close();
  const probe = await raw(port, 'GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n', { wait: 1_000 });
  assert.equal(probe.statuses, [503]);
  assert.ok(probe.closed, 'the server closes the connection after the answer');
  await closing;
});

Health('invalid health options and a path clash throw KILN050', () => {
  const cases: [unknown, string][] = [
    [{ readiness: 'ready' }, `health: readiness must be a path starting with '/', or false; got "ready"`],
    [{ interval: -1 }, 'health: interval must be a whole number of milliseconds of at least 0, got -1'],
    [{ checks: { redis: 42 } }, 'health: checks.redis must be a function or { check, timeout? }'],
    [
      { checks: { redis: { check: () => true, timeout: 0 } } },
      'health: checks.redis.timeout must be a whole number of milliseconds of at least 1, got 0',
    ],
    [{ liveness: '/same', readiness: '/same' }, 'health: liveness and readiness are the same path, /same'],
    [
      { readiness: '/work/quick' },
      'health: GET /work/quick (readiness) is already a route of the app; choose another health.readiness path',
    ],
  ];
  for (const [health, message] of cases) {
    assert.throws(
      () => createServer({ controllers: [WorkController], health: health as never }),
      (error: Error & { code?: string }) => error.code === 'KILN050' && error.message === message,
      message,
    );
  }
});

Health.run();
