// createServer({ errors: 'problem+json' }) over real HTTP on 127.0.0.1 and through app.fetch: every
// error answer — Kiln's own (400 with its failures, 404, 405 with Allow, 413, 414, 415, 429 from the
// rate limiter, 406 of an event stream, 431, 500, 503 from health and from a handler deadline, the Node listener's own
// refusals) and a thrown HttpError — is RFC 9457 problem details; the default stays the spec's body.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import {
  Body,
  Controller,
  cors,
  createServer,
  Delete,
  Get,
  HttpError,
  Param,
  Post,
  Query,
  Sse,
  type KilnConfig,
  type KilnRequest,
} from '@kiln/core';
import { rateLimit } from '@kiln/rate-limit';
import { raw } from '../support/raw.js';
import { overBothTransports, request, requestInProcess, start } from '../support/server.js';

const problemType = 'application/problem+json';
const jsonType = 'application/json; charset=utf-8';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface NewBook {
  title: string;
  pages: number;
}

class OutOfCredit extends HttpError<403, { balance: number; cost: number }> {
  override readonly type = 'https://example.com/problems/out-of-credit';
  override readonly title = 'You do not have enough credit';
  constructor(balance: number, cost: number) {
    super(403, `Your balance is ${balance}, the book costs ${cost}`, { balance, cost });
  }
}

@Controller('/books')
class BooksController {
  @Get('/:id')
  get(@Param('id') id: number): { id: number } {
    if (id === 404) throw new HttpError(404, `Book ${id} not found`, { id });
    return { id };
  }
  @Post('/')
  create(@Body() book: NewBook) {
    return book;
  }
  @Delete('/:id')
  remove(@Param('id') id: number) {
    throw new HttpError(409, `Book ${id} is on loan`, ['alice', 'bob'], { instance: `/loans/${id}` });
  }
  @Get('/buy/:id')
  buy() {
    throw new OutOfCredit(30, 50);
  }
  @Get('/reserved/members')
  reserved() {
    throw new HttpError(422, "Members that RFC 9457 defines are Kiln's", {
      status: 200,
      type: 'x',
      detail: 'no',
      title: 't',
      instance: 'i',
      kept: 1,
    });
  }
  @Get('/crash/now')
  crash() {
    throw new Error('database password is hunter2');
  }
  @Get('/slow/answer')
  async slow() {
    await sleep(2_000);
    return { late: true };
  }
  @Get('/search/by')
  search(@Query('year') year: number) {
    return { year };
  }
  @Get('/news/feed')
  @Sse({ heartbeat: 0 })
  async *feed(): AsyncGenerator<{ title: string }> {
    yield { title: 'new' };
  }
}

const config: KilnConfig = {
  controllers: [BooksController],
  strictValidation: true,
  errors: 'problem+json',
  maxBodySize: 64,
  maxUrlLength: 200,
  handlerTimeout: 50,
  logger: { level: 'silent' },
};

const Problems = suite('problem details');

Problems(
  "every kind of Kiln's own error and a thrown HttpError is application/problem+json, over a socket and through app.fetch alike",
  async () => {
    await overBothTransports(config, async (send) => {
      const notFound = await send('/nowhere');
      assert.is(notFound.status, 404);
      assert.is(notFound.headers.get('content-type'), problemType);
      assert.equal(notFound.json(), {
        type: 'about:blank',
        title: 'Not Found',
        status: 404,
        detail: 'No route for GET /nowhere',
        instance: '/nowhere',
      });

      const wrongMethod = await send('/books/1', { method: 'PUT' });
      assert.is(wrongMethod.status, 405);
      assert.is(wrongMethod.headers.get('allow'), 'GET, DELETE, HEAD, OPTIONS');
      assert.is(wrongMethod.headers.get('content-type'), problemType);
      assert.equal(wrongMethod.json(), {
        type: 'about:blank',
        title: 'Method Not Allowed',
        status: 405,
        detail: 'Method PUT is not allowed for /books/1',
        instance: '/books/1',
      });

      const conversion = await send('/books/abc');
      assert.is(conversion.status, 400);
      assert.is(conversion.headers.get('content-type'), problemType);
      assert.equal(conversion.json(), {
        type: 'about:blank',
        title: 'Bad Request',
        status: 400,
        detail: "Parameter 'id' expected number, got 'abc'",
        instance: '/books/abc',
        errors: [{ path: 'id', expected: 'number', value: 'abc' }],
      });

      const required = await send('/books/search/by');
      assert.is(required.status, 400);
      assert.equal(required.json().errors, [{ path: 'year', expected: 'a value' }]);

      const invalid = await send('/books', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":1}' });
      assert.is(invalid.status, 400);
      assert.is(invalid.headers.get('content-type'), problemType);
      const body = invalid.json();
      assert.is(body.type, 'about:blank');
      assert.is(body.status, 400);
      assert.ok(body.detail.startsWith('Invalid request body: $input.title expected string, got 1'), body.detail);
      assert.equal(body.errors, [
        { path: '$input.title', expected: 'string', value: 1 },
        { path: '$input.pages', expected: 'number' },
      ]);

      const tooLarge = await send('/books', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"title":"${'x'.repeat(100)}"}`,
      });
      assert.is(tooLarge.status, 413);
      assert.is(tooLarge.headers.get('content-type'), problemType);
      assert.equal(tooLarge.json(), {
        type: 'about:blank',
        title: 'Payload Too Large',
        status: 413,
        detail: 'Request body is larger than the limit of 64 bytes',
        instance: '/books',
      });

      const longTarget = await send(`/books/1?q=${'a'.repeat(300)}`);
      assert.is(longTarget.status, 414);
      assert.is(longTarget.headers.get('content-type'), problemType);
      assert.is(longTarget.json().title, 'URI Too Long');
      assert.is(longTarget.json().detail, 'Request target is longer than 200 bytes');

      const unsupported = await send('/books', { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<book/>' });
      assert.is(unsupported.status, 415);
      assert.is(unsupported.headers.get('content-type'), problemType);
      assert.is(unsupported.json().title, 'Unsupported Media Type');

      const declared = await send('/books/404');
      assert.is(declared.status, 404);
      assert.equal(declared.json(), {
        type: 'about:blank',
        title: 'Not Found',
        status: 404,
        detail: 'Book 404 not found',
        instance: '/books/404',
        id: 404,
      });

      const typed = await send('/books/buy/7');
      assert.is(typed.status, 403);
      assert.equal(typed.json(), {
        type: 'https://example.com/problems/out-of-credit',
        title: 'You do not have enough credit',
        status: 403,
        detail: 'Your balance is 30, the book costs 50',
        instance: '/books/buy/7',
        balance: 30,
        cost: 50,
      });

      const listData = await send('/books/3', { method: 'DELETE' });
      assert.equal(listData.json(), {
        type: 'about:blank',
        title: 'Conflict',
        status: 409,
        detail: 'Book 3 is on loan',
        instance: '/loans/3',
        data: ['alice', 'bob'],
      });

      const reserved = await send('/books/reserved/members');
      assert.is(reserved.status, 422);
      assert.equal(reserved.json(), {
        type: 'about:blank',
        title: 'Unprocessable Content',
        status: 422,
        detail: "Members that RFC 9457 defines are Kiln's",
        instance: '/books/reserved/members',
        kept: 1,
      });

      const crash = await send('/books/crash/now');
      assert.is(crash.status, 500);
      assert.is(crash.headers.get('content-type'), problemType);
      assert.equal(crash.json(), {
        type: 'about:blank',
        title: 'Internal Server Error',
        status: 500,
        detail: 'Internal Server Error',
        instance: '/books/crash/now',
      });
      assert.not.match(crash.text, 'hunter2');

      const late = await send('/books/slow/answer');
      assert.is(late.status, 503);
      assert.is(late.headers.get('content-type'), problemType);
      assert.equal(late.json(), {
        type: 'about:blank',
        title: 'Service Unavailable',
        status: 503,
        detail: 'The handler did not answer within 50 ms',
        instance: '/books/slow/answer',
      });

      const notAcceptable = await send('/books/news/feed', { headers: { accept: 'application/json' } });
      assert.is(notAcceptable.status, 406);
      assert.is(notAcceptable.headers.get('content-type'), problemType);
      assert.equal(notAcceptable.json(), {
        type: 'about:blank',
        title: 'Not Acceptable',
        status: 406,
        detail: 'GET /books/news/feed answers text/event-stream only',
        instance: '/books/news/feed',
      });

      const head = await send('/nowhere', { method: 'HEAD' });
      assert.is(head.status, 404);
      assert.is(head.headers.get('content-type'), problemType);
      assert.is(head.text, '');
    });
  },
);

Problems("the default is the spec's error body, application/json, for the same errors", async () => {
  await overBothTransports({ ...config, errors: undefined }, async (send) => {
    const notFound = await send('/nowhere');
    assert.is(notFound.headers.get('content-type'), jsonType);
    assert.equal(notFound.json(), { error: 'Not Found', message: 'No route for GET /nowhere' });
    const conversion = await send('/books/abc');
    assert.equal(conversion.json(), { error: 'Bad Request', message: "Parameter 'id' expected number, got 'abc'" });
    const typed = await send('/books/buy/7');
    assert.equal(typed.json(), { error: 'Forbidden', message: 'Your balance is 30, the book costs 50', data: { balance: 30, cost: 50 } });
    const crash = await send('/books/crash/now');
    assert.equal(crash.json(), { error: 'Internal Server Error', message: 'Internal Server Error' });
  });
  await overBothTransports({ ...config, errors: 'json' }, async (send) => {
    const wrongMethod = await send('/books/1', { method: 'PUT' });
    assert.is(wrongMethod.headers.get('content-type'), jsonType);
    assert.equal(wrongMethod.json(), { error: 'Method Not Allowed', message: 'Method PUT is not allowed for /books/1' });
  });
});

Problems("the rate limiter's default 429 follows the server's choice, its headers kept", async () => {
  const limited = (errors: KilnConfig['errors']) =>
    start({ controllers: [BooksController], errors, middlewares: [rateLimit({ max: 1, windowMs: 60_000 })], logger: { level: 'silent' } });
  const problem = await limited('problem+json');
  try {
    assert.is((await request(problem.base, '/books/1')).status, 200);
    const denied = await request(problem.base, '/books/1');
    assert.is(denied.status, 429);
    assert.is(denied.headers.get('content-type'), problemType);
    assert.is(denied.headers.get('ratelimit-limit'), '1');
    assert.is(denied.headers.get('ratelimit-remaining'), '0');
    assert.ok(Number(denied.headers.get('retry-after')) > 0);
    const body = denied.json();
    assert.equal(Object.keys(body), ['type', 'title', 'status', 'detail', 'instance']);
    assert.equal([body.type, body.title, body.status, body.instance], ['about:blank', 'Too Many Requests', 429, '/books/1']);
    assert.match(body.detail, /^Rate limit exceeded\. Try again in \d+ seconds\.$/);
    const inProcess = [await requestInProcess(problem.app, '/books/2'), await requestInProcess(problem.app, '/books/2')];
    assert.is(inProcess[1]!.status, 429);
    assert.is(inProcess[1]!.headers.get('content-type'), problemType);
    assert.is(inProcess[1]!.json().instance, '/books/2');
  } finally {
    await problem.close();
  }
  const json = await limited(undefined);
  try {
    await request(json.base, '/books/1');
    const denied = await request(json.base, '/books/1');
    assert.is(denied.headers.get('content-type'), 'application/json');
    assert.equal(Object.keys(denied.json()), ['error', 'message']);
  } finally {
    await json.close();
  }
});

Problems('health readiness 503 while closing is problem details', async () => {
  const server = await start({
    controllers: [BooksController],
    errors: 'problem+json',
    health: { drainDelay: 200 },
    logger: { level: 'silent' },
  });
  const closing = server.close();
  const during = await request(server.base, '/readyz');
  assert.is(during.status, 503);
  assert.is(during.headers.get('content-type'), problemType);
  assert.equal(during.json(), {
    type: 'about:blank',
    title: 'Service Unavailable',
    status: 503,
    detail: 'The server is shutting down',
    instance: '/readyz',
  });
  await closing;
});

Problems('CORS headers are on a problem answer, as on any other', async () => {
  await overBothTransports({ ...config, middlewares: [cors({ origin: ['https://app.example'] })] }, async (send) => {
    const missing = await send('/nowhere', { headers: { origin: 'https://app.example' } });
    assert.is(missing.status, 404);
    assert.is(missing.headers.get('content-type'), problemType);
    assert.is(missing.headers.get('access-control-allow-origin'), 'https://app.example');
  });
});

Problems('non-strict mode: a failed conversion is no error, a thrown HttpError still is problem details', async () => {
  await overBothTransports({ ...config, strictValidation: false }, async (send) => {
    const lenient = await send('/books/abc');
    assert.is(lenient.status, 200);
    assert.equal(lenient.json(), { id: null });
    const declared = await send('/books/404');
    assert.is(declared.headers.get('content-type'), problemType);
    assert.is(declared.json().id, 404);
  });
});

Problems("the Node listener's own refusals (a malformed head, an Upgrade, too many header lines) are problem details", async () => {
  const server = await start({ ...config, maxHeadersCount: 5 });
  try {
    const port = Number(new URL(server.base).port);
    const malformed = await raw(port, 'GET / HTTP/1.1\r\nHost: a\r\nBad Header\r\n\r\n');
    assert.equal(malformed.statuses, [400]);
    assert.match(malformed.text, /content-type: application\/problem\+json/i);
    assert.match(malformed.text, /"type":"about:blank","title":"Bad Request","status":400,"detail":"Malformed HTTP request"/);
    const upgrade = await raw(port, 'GET /books/1 HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n');
    assert.equal(upgrade.statuses, [400]);
    assert.match(upgrade.text, /content-type: application\/problem\+json/i);
    const headers = Array.from({ length: 8 }, (_, i) => `x-h${i}: ${i}\r\n`).join('');
    const many = await raw(port, `GET /books/1 HTTP/1.1\r\nHost: a\r\n${headers}\r\n`);
    assert.equal(many.statuses, [431]);
    assert.match(many.text, /content-type: application\/problem\+json/i);
    assert.match(many.text, /"title":"Request Header Fields Too Large","status":431/);
  } finally {
    await server.close();
  }
});

Problems("req.problemResponse is the server's problem answer in problem mode, undefined with the default body", async () => {
  const seen: (Response | undefined)[] = [];
  const probe = (req: KilnRequest) => {
    seen.push(req.problemResponse(451, 'Not here', { region: 'xx' }));
  };
  for (const errors of ['problem+json', 'json'] as const) {
    const app = createServer({ controllers: [BooksController], errors, middlewares: [probe], logger: { level: 'silent' } });
    await app.fetch(new Request('http://localhost/books/1'));
  }
  const [problem, json] = seen;
  assert.is(json, undefined);
  assert.is(problem!.status, 451);
  assert.is(problem!.headers.get('content-type'), problemType);
  assert.equal(await problem!.json(), {
    type: 'about:blank',
    title: 'Unavailable For Legal Reasons',
    status: 451,
    detail: 'Not here',
    instance: '/books/1',
    region: 'xx',
  });
});

Problems('a wrong errors option is a start-up KILN058; a problem member that is not a string (or a type that is no URI) is KILN059', () => {
  for (const errors of ['xml', 'problem', true, null]) {
    try {
      createServer({ controllers: [], errors: errors as never });
      assert.unreachable(`errors: ${String(errors)} was accepted`);
    } catch (error) {
      assert.is((error as { code?: string }).code, 'KILN058', String(errors));
    }
  }
  assert.throws(
    () => createServer({ controllers: [], errors: 'XML' as never }),
    (error: Error) =>
      error.message ===
      `errors must be 'json' (the default body { error, message, data? }) or 'problem+json' (RFC 9457 problem details), got "XML"`,
  );
  assert.throws(
    () => new HttpError(400, 'x', undefined, { type: 'has spaces in it' }),
    (error: { code?: string }) => error.code === 'KILN059',
  );
  assert.throws(
    () => new HttpError(400, 'x', undefined, { title: 42 as never }),
    (error: Error & { code?: string }) =>
      error.code === 'KILN059' && error.message === 'HttpError: the problem member title must be a string, got number',
  );
});

const reservedNames = ['type', 'title', 'status', 'detail', 'instance'];
const memberName = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(...reservedNames, '__proto__', 'toJSON', 'data', 'constructor'));

Problems(
  'property: for any HttpError, the answer is problem+json with its status, the five members right, and nothing beyond the data it carries',
  async () => {
    let thrown: HttpError = new HttpError(400, 'x');
    @Controller('/any')
    class AnyController {
      @Get('/')
      any() {
        throw thrown;
      }
    }
    const app = createServer({ controllers: [AnyController], errors: 'problem+json', logger: { level: 'silent' } });
    const data = fc.oneof(
      fc.constant(undefined),
      fc.jsonValue(),
      fc.dictionary(memberName, fc.jsonValue(), { maxKeys: 6 }),
      // what JSON leaves out: functions, undefined members; and a toJSON that answers for the data
      fc.record({ fn: fc.constant(() => 1), gone: fc.constant(undefined), kept: fc.integer() }),
      fc.jsonValue().map((value) => ({ toJSON: () => value })),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 400, max: 599 }),
        fc.string({ maxLength: 40 }),
        data,
        fc.option(fc.webUrl(), { nil: undefined }),
        async (status, message, payload, type) => {
          thrown = new HttpError(status, message, payload, { type });
          // properties of the error itself are never data
          Object.assign(thrown, { secret: 'SECRET-7f3a9', cause: new Error('INNER-CAUSE-b21') });
          const response = await app.fetch(new Request('http://localhost/any'));
          assert.is(response.status, status);
          assert.is(response.headers.get('content-type'), problemType);
          const body = await response.json();
          assert.type(body, 'object');
          assert.is(body.type, type ?? 'about:blank');
          assert.is(body.status, status);
          assert.is(body.detail, message);
          assert.is(body.instance, '/any');
          assert.type(body.title, 'string');
          const expected = JSON.parse(JSON.stringify(payload) ?? 'null');
          const extensions = Object.keys(body).filter((name) => !reservedNames.includes(name));
          if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
            for (const name of extensions) assert.equal(body[name], expected[name], `member ${name} is the data's own`);
            assert.equal(
              extensions.sort(),
              Object.keys(expected)
                .filter((name) => !reservedNames.includes(name))
                .sort(),
            );
          } else if (payload === undefined || JSON.stringify(payload) === undefined) {
            assert.equal(extensions, []);
          } else {
            assert.equal(extensions, ['data']);
            assert.equal(body.data, expected);
          }
          assert.not.ok(JSON.stringify(body).includes('SECRET-7f3a9'));
          assert.not.ok(JSON.stringify(body).includes('INNER-CAUSE-b21'));
        },
      ),
      { numRuns: 300 },
    );
  },
);

Problems.run();
