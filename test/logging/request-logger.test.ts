// requestLogger(), req.id, the default onError and the debug option, over a socket on 127.0.0.1
// and through app.fetch, with pino (installed as a dev dependency) and with Kiln's JSON writer.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  Controller,
  Get,
  HttpError,
  Inject,
  Injectable,
  Logger,
  Param,
  Req,
  cors,
  createServer,
  requestLogger,
  type KilnConfig,
  type KilnRequest,
  type LogDestination,
} from '@kiln/core';
import { rateLimit } from '@kiln/rate-limit';
import { raw } from '../support/raw.js';
import { overBothTransports, request, start } from '../support/server.js';
import { seededRandom } from '../hardening/support/seeded-random.js';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A destination that keeps every line, parsed. */
function memoryDestination(): LogDestination & { lines: Record<string, any>[] } {
  const lines: Record<string, any>[] = [];
  return { lines, write: (line: string) => void lines.push(JSON.parse(line)) };
}

@Injectable()
class Greeter {
  constructor(@Inject(Logger) private readonly log: Logger) {}
  greet(name: string): string {
    this.log.info({ name }, 'greeting');
    return `Hello, ${name}`;
  }
}

@Controller('/notes')
class NotesController {
  constructor(private readonly greeter: Greeter) {}

  @Get('/:id')
  get(@Param('id') id: number, @Req() req: KilnRequest) {
    req.log.info('reading a note');
    return { id, requestId: req.id, greeting: this.greeter.greet('ann') };
  }

  @Get('/fail/now')
  fail(): never {
    throw new Error('database is down');
  }

  @Get('/gone/now')
  gone(): never {
    throw new HttpError(410, 'Gone for good');
  }
}

/** Values whose serialisation throws: a getter, toJSON, toString, Proxy traps, an Error's fields. */
function hostileValues(): Record<string, unknown> {
  const boom = () => {
    throw new Error('hostile');
  };
  const error = new Error('hostile error');
  Object.defineProperty(error, 'message', { get: boom });
  Object.defineProperty(error, 'code', { get: boom, enumerable: true });
  return {
    getter: Object.defineProperty({ id: 1 }, 'secret', { get: boom, enumerable: true }),
    toJSON: { toJSON: boom },
    toString: { toString: boom },
    proxy: new Proxy({}, { ownKeys: boom, get: boom, getPrototypeOf: boom }),
    error,
  };
}

@Controller('/hostile')
class HostileLogController {
  @Get('/')
  log(@Req() req: KilnRequest) {
    const values = hostileValues();
    req.log.info(values, 'fields');
    req.log.error(values.error as Error);
    req.log.warn(values.proxy as object, 'a proxy first');
    req.log.info('%s and %j', values.toString, values.toJSON);
    req.log.child({ bound: values.getter, proxy: values.proxy }).info({ nested: [values.error] }, 'from a child');
    return { logged: true };
  }
}

const backends = [
  { name: 'pino', pino: true },
  { name: 'JSON writer', pino: false },
] as const;

const test = suite('requestLogger and the application logger');

for (const backend of backends) {
  test(`${backend.name}: one line per request with pino-http's fields, the id echoed and available as req.id`, async () => {
    const destination = memoryDestination();
    const config: KilnConfig = {
      controllers: [NotesController],
      middlewares: [requestLogger()],
      logger: { destination, pino: backend.pino },
    };
    await overBothTransports(
      config,
      async (send) => {
        destination.lines.length = 0;
        const reply = await send('/notes/7?full=1');
        assert.is(reply.status, 200);
        const id = reply.headers.get('x-request-id')!;
        assert.match(id, uuid);
        assert.is(reply.json().requestId, id, 'req.id is the echoed id');
        const [reading, greeting, access] = destination.lines;
        assert.is(destination.lines.length, 3);
        assert.equal([reading!.level, reading!.reqId, reading!.msg], [30, id, 'reading a note'], 'req.log is bound to the id');
        assert.equal([greeting!.name, greeting!.msg], ['ann', 'greeting'], 'the injected Logger writes to the same place');
        assert.equal(access!.req, { id, method: 'GET', url: '/notes/7?full=1' });
        assert.equal(access!.res, { statusCode: 200 });
        assert.is(access!.msg, 'request completed');
        assert.is(access!.level, 30);
        assert.ok(Number.isInteger(access!.responseTime) && access!.responseTime >= 0);
        assert.type(access!.time, 'number');
      },
      { identical: false },
    );
  });

  test(`${backend.name}: a 5xx is an error line, onError logs the error with the request's id`, async () => {
    const destination = memoryDestination();
    await overBothTransports(
      { controllers: [NotesController], middlewares: [requestLogger()], logger: { destination, pino: backend.pino } },
      async (send) => {
        destination.lines.length = 0;
        const reply = await send('/notes/fail/now?token=secret');
        assert.is(reply.status, 500);
        assert.equal(reply.json(), { error: 'Internal Server Error', message: 'Internal Server Error' });
        const id = reply.headers.get('x-request-id');
        const [failed, access] = destination.lines;
        assert.is(failed!.level, 50);
        assert.is(failed!.msg, 'request failed');
        assert.equal(failed!.req, { id, method: 'GET', path: '/notes/fail/now' });
        assert.equal([failed!.err.type, failed!.err.message], ['Error', 'database is down']);
        assert.match(failed!.err.stack, /database is down/);
        assert.equal([access!.level, access!.msg, access!.res.statusCode], [50, 'request errored', 500]);
        assert.not.match(JSON.stringify(failed), /secret/, 'onError logs the path, never the query string');

        destination.lines.length = 0;
        assert.is((await send('/notes/gone/now')).status, 410);
        assert.equal(
          destination.lines.map((line) => [line.level, line.msg]),
          [[30, 'request completed']],
          'an HttpError is an answer, not a failure',
        );
      },
      { identical: false },
    );
  });
}

test('a handler that logs hostile values answers normally; every line parses and keeps what could be written', async () => {
  const destination = memoryDestination();
  await overBothTransports(
    { controllers: [HostileLogController], middlewares: [requestLogger()], logger: { destination, pino: false } },
    async (send) => {
      destination.lines.length = 0;
      const reply = await send('/hostile');
      assert.is(reply.status, 200);
      assert.equal(reply.json(), { logged: true });
      const [fields, error, proxy, args, child, access] = destination.lines;
      assert.is(destination.lines.length, 6);
      assert.equal([fields!.getter, fields!.toJSON, fields!.msg], [{ id: 1, secret: '[Unserializable]' }, '[Unserializable]', 'fields']);
      assert.equal(
        [error!.level, error!.err.message, error!.err.code, error!.msg],
        [50, '[Unserializable]', '[Unserializable]', '[Unserializable]'],
      );
      assert.equal([proxy!.level, proxy!.fields, proxy!.msg], [40, '[Unserializable]', 'a proxy first']);
      assert.is(args!.msg, '[Unserializable] and "[Unserializable]"');
      assert.equal(
        [child!.bound, child!.proxy, child!.nested[0].code, child!.msg],
        [{ id: 1, secret: '[Unserializable]' }, '[Unserializable]', '[Unserializable]', 'from a child'],
      );
      assert.equal([access!.res, access!.msg], [{ statusCode: 200 }, 'request completed']);
    },
    { identical: false },
  );
});

test('X-Request-Id is kept only from a trusted proxy (the trustProxy rule of req.ip)', async () => {
  const cases: [KilnConfig['trustProxy'], boolean][] = [
    [undefined, true],
    [true, true],
    [false, false],
    [1, true],
    [['10.0.0.0/8'], false],
    [['loopback'], true],
  ];
  for (const [trustProxy, kept] of cases) {
    const destination = memoryDestination();
    const started = await start({ controllers: [NotesController], middlewares: [requestLogger()], trustProxy, logger: { destination } });
    try {
      const reply = await request(started.base, '/notes/1', { headers: { 'x-request-id': 'lb-42.abc' } });
      const id = reply.headers.get('x-request-id')!;
      assert.is(id === 'lb-42.abc', kept, `trustProxy ${JSON.stringify(trustProxy)}`);
      if (!kept) assert.match(id, uuid);
      assert.is(reply.json().requestId, id);
      assert.is(destination.lines.at(-1)!.req.id, id);
    } finally {
      await started.close();
    }
  }
  // In process there is no socket: the request is treated as coming from a trusted hop.
  const app = createServer({
    controllers: [NotesController],
    middlewares: [requestLogger()],
    trustProxy: ['10.0.0.0/8'],
    logger: { pino: false, destination: memoryDestination() },
  });
  const reply = await app.fetch(new Request('http://localhost/notes/1', { headers: { 'x-request-id': 'lb-42' } }));
  assert.is(reply.headers.get('x-request-id'), 'lb-42');
});

test('hostile X-Request-Id values: kept when they are 1-128 visible ASCII characters, else replaced; never a failed request', async () => {
  const destination = memoryDestination();
  const started = await start({ controllers: [NotesController], middlewares: [requestLogger()], logger: { destination } });
  const port = Number(new URL(started.base).port);
  const next = seededRandom(27);
  const alphabet = ['a', 'Z', '9', '-', ' ', '\t', '"', '\\', '%', '{', '}', 'é', '\x7f', '\x01', '=', '/', ':', '__proto__'];
  try {
    for (let i = 0; i < 60; i++) {
      const length = next() < 0.1 ? 129 + Math.floor(next() * 500) : Math.floor(next() * 20);
      let value = '';
      while (value.length < length) value += alphabet[Math.floor(next() * alphabet.length)];
      const head = Buffer.from(`GET /notes/3 HTTP/1.1\r\nHost: x\r\nX-Request-Id: ${value}\r\nConnection: close\r\n\r\n`, 'latin1');
      const reply = await raw(port, head);
      // Node's parser itself refuses control characters other than tab in a header value.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is tested
      if (/[\x00-\x08\x0a-\x1f\x7f]/.test(value)) {
        assert.equal(reply.statuses, [400], JSON.stringify(value));
        continue;
      }
      assert.equal(reply.statuses, [200], JSON.stringify(value));
      const echoed = /\r\nx-request-id: ([^\r]*)\r\n/.exec(reply.text)?.[1];
      // Node trims the header value's surrounding whitespace before Kiln sees it.
      const received = value.replace(/^[ \t]+|[ \t]+$/g, '');
      const acceptable = /^[\x21-\x7e]{1,128}$/.test(received);
      if (acceptable) assert.is(echoed, received);
      else assert.match(echoed!, uuid);
      assert.is(destination.lines.at(-1)!.req.id, echoed);
    }
  } finally {
    await started.close();
  }
});

test('composes with CORS, a rate limiter and injected services; header: false echoes nothing', async () => {
  const destination = memoryDestination();
  const config: KilnConfig = {
    controllers: [NotesController],
    middlewares: [requestLogger({ header: false }), cors({ origin: 'https://app.example' }), rateLimit({ max: 2 })],
    logger: { destination },
  };
  await overBothTransports(
    config,
    async (send) => {
      destination.lines.length = 0;
      const headers = { origin: 'https://app.example' };
      const replies = [await send('/notes/1', { headers }), await send('/notes/2', { headers }), await send('/notes/3', { headers })];
      assert.equal(
        replies.map((reply) => reply.status),
        [200, 200, 429],
      );
      assert.is(replies[0]!.headers.get('x-request-id'), null);
      assert.is(replies[2]!.headers.get('access-control-allow-origin'), 'https://app.example');
      const access = destination.lines.filter((line) => line.msg?.startsWith('request'));
      assert.equal(
        access.map((line) => line.res.statusCode),
        [200, 200, 429],
      );
      assert.is(new Set(access.map((line) => line.req.id)).size, 3, 'each request has its own id');
    },
    { identical: false },
  );
});

test('the documented order, requestLogger() before cors(): preflights are logged too; after cors() they are not', async () => {
  const preflight = {
    method: 'OPTIONS',
    headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
  };
  for (const loggerFirst of [true, false]) {
    const destination = memoryDestination();
    const logger = requestLogger();
    const allow = cors({ origin: 'https://app.example' });
    const started = await start({
      controllers: [NotesController],
      middlewares: loggerFirst ? [logger, allow, rateLimit({ max: 5 })] : [allow, logger, rateLimit({ max: 5 })],
      logger: { destination, pino: false },
    });
    try {
      const reply = await request(started.base, '/notes/1', preflight);
      assert.is(reply.status, 204);
      assert.is(reply.headers.get('access-control-allow-origin'), 'https://app.example');
      const logged = destination.lines.filter((line) => line.msg === 'request completed');
      if (loggerFirst) {
        assert.equal([logged.length, logged[0]?.req.method, logged[0]?.res.statusCode], [1, 'OPTIONS', 204]);
        assert.is(reply.headers.get('x-request-id'), logged[0]!.req.id);
      } else assert.is(logged.length, 0, 'cors() answered the preflight before the logger ran');
    } finally {
      await started.close();
    }
  }
});

test('a client that leaves before the answer is sent whole: a warn line, "request aborted"', async () => {
  const destination = memoryDestination();
  @Controller('/slow')
  class SlowController {
    @Get('/')
    slow() {
      let timer: NodeJS.Timeout;
      return new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('first part'));
            timer = setInterval(() => controller.enqueue(new TextEncoder().encode('.')), 20);
          },
          cancel() {
            clearInterval(timer);
          },
        }),
      );
    }
  }
  const started = await start({ controllers: [SlowController], middlewares: [requestLogger()], logger: { destination } });
  try {
    const port = Number(new URL(started.base).port);
    await raw(port, 'GET /slow HTTP/1.1\r\nHost: x\r\n\r\n', { wait: 100 });
    for (let i = 0; i < 50 && destination.lines.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    const [line] = destination.lines;
    assert.equal([line!.level, line!.msg, line!.res.statusCode], [40, 'request aborted', 200]);
  } finally {
    await started.close();
  }
});

test('debug: the route table at start-up and every route decision, as debug lines', async () => {
  const destination = memoryDestination();
  await overBothTransports(
    { controllers: [NotesController], logger: { destination }, debug: true },
    async (send, transport) => {
      // One server serves both transports: its table was logged once, before the socket run.
      const table =
        transport === 'fetch' ? [] : destination.lines.filter((line) => line.route?.handler !== undefined && line.req === undefined);
      assert.equal(
        table.map((line) => line.msg),
        transport === 'fetch'
          ? []
          : [
              'GET /notes/:id → NotesController.get',
              'GET /notes/fail/now → NotesController.fail',
              'GET /notes/gone/now → NotesController.gone',
            ],
      );
      destination.lines.length = 0;
      await send('/notes/5');
      await send('/nothing');
      await send('/notes/5', { method: 'DELETE' });
      const decisions = destination.lines.filter((line) => line.level === 20);
      assert.equal(
        decisions.map((line) => line.msg),
        ['GET /notes/5 → NotesController.get (GET /notes/:id)', 'GET /nothing → 404 no route', 'DELETE /notes/5 → 405 method not allowed'],
      );
      assert.equal(decisions[0]!.params, { id: '5' });
      assert.equal(decisions[2]!.allow, 'GET, HEAD, OPTIONS');
    },
    { identical: false },
  );
  // With the application's own logger at 'info', debug says how to see its lines.
  const destination2 = memoryDestination();
  const { createLogger } = await import('@kiln/core');
  createServer({ controllers: [NotesController], logger: createLogger({ destination: destination2 }), debug: true });
  assert.equal(
    destination2.lines.map((line) => [line.level, line.msg]),
    [[40, "debug: true, but the logger's level is 'info': set it to 'debug' to see the route table and route decisions"]],
  );
});

test('injections can replace the Logger services get; a pino instance is a Logger', async () => {
  const pino = (await import('pino')).default;
  const chunks: string[] = [];
  const own: Logger = pino({ level: 'info' }, { write: (line: string) => void chunks.push(line) });
  const injected = memoryDestination();
  const { createLogger } = await import('@kiln/core');
  await overBothTransports(
    {
      controllers: [NotesController],
      logger: own,
      injections: [{ token: Logger, provide: createLogger({ pino: false, destination: injected }) }],
    },
    async (send) => {
      await send('/notes/1');
    },
    { identical: false },
  );
  assert.is(injected.lines.filter((line) => line.msg === 'greeting').length, 2, 'the service got the injected logger');
  assert.is(
    chunks.map((line) => JSON.parse(line)).filter((line) => line.msg === 'reading a note').length,
    2,
    'req.log is the application logger',
  );
});

test('start-up checks: invalid logger options and requestLogger options are KILN007', () => {
  const codeOf = (run: () => unknown): string | undefined => {
    try {
      run();
    } catch (error) {
      return (error as { code?: string }).code;
    }
    return undefined;
  };
  assert.is(
    codeOf(() => createServer({ controllers: [], logger: { level: 'loud' as never } })),
    'KILN007',
  );
  assert.is(
    codeOf(() => createServer({ controllers: [], debug: 'yes' as never })),
    'KILN007',
  );
  assert.is(
    codeOf(() => requestLogger({ header: 'bad header' })),
    'KILN007',
  );
  assert.is(
    codeOf(() => requestLogger({ logger: {} as never })),
    'KILN007',
  );
});

test.run();
