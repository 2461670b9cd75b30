import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get, HttpError, HttpStatus, KilnError, compiledBinder, type KilnRequest, type MiddlewareFunction } from '@kiln/core';
import { start, request, type Started } from '../support/server.js';
import { raw } from '../support/raw.js';

// Every value a handler can put into a response head, taken from the request: none may take the
// process down (an uncaught exception or unhandled rejection ends a Node process).

const reported: unknown[] = [];
const escaped: unknown[] = [];
const onUncaught = (error: unknown) => {
  escaped.push(error);
};

const hostileProxy = () =>
  new Proxy(
    {},
    {
      getPrototypeOf() {
        throw new Error('trap');
      },
      get() {
        throw new Error('trap');
      },
    },
  );
const forgedHttpError = (status: unknown) => Object.assign(Object.create(HttpError.prototype), { status, message: 'forged' });

const passThrough: MiddlewareFunction = async (_req, next) => next();

@Controller('/u')
class UnsendableController {
  @Get('/ok') ok() {
    return { ok: true };
  }
  @Get('/recorded')
  @compiledBinder((req: KilnRequest) => [req, req.query.v])
  recorded(req: KilnRequest, value: string) {
    req.setResponseHeader('x-echo', value);
    return 'x';
  }
  @Get('/recorded-async')
  @compiledBinder((req: KilnRequest) => [req, req.query.v])
  async recordedAsync(req: KilnRequest, value: string) {
    req.setResponseHeader('x-echo', value);
    return 'x';
  }
  @Get('/recorded-name')
  @compiledBinder((req: KilnRequest) => [req, req.query.v])
  recordedName(req: KilnRequest, name: string) {
    req.setResponseHeader(name, 'v');
    return 'x';
  }
  @Get('/response')
  @compiledBinder((req: KilnRequest) => [req.query.v])
  response(value: string) {
    return new Response('x', { headers: { 'x-echo': value } });
  }
  @Get('/response-async')
  @compiledBinder((req: KilnRequest) => [req.query.v])
  async responseAsync(value: string) {
    return new Response('x', { headers: { 'x-echo': value } });
  }
  @Get('/response-name')
  @compiledBinder((req: KilnRequest) => [req.query.v])
  async responseName(name: string) {
    return new Response('x', { headers: { [name]: 'v' } });
  }
  @Get('/response-stream')
  @compiledBinder((req: KilnRequest) => [req.query.v])
  responseStream(value: string) {
    const body = new ReadableStream({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('x'));
        controller.close();
      },
    });
    return new Response(body, { headers: { 'x-echo': value } });
  }
  @Get('/throw-proxy') throwProxy() {
    throw hostileProxy();
  }
  @Get('/reject-proxy') async rejectProxy() {
    throw hostileProxy();
  }
  @Get('/return-proxy') returnProxy() {
    return hostileProxy();
  }
  @Get('/return-proxy-async') async returnProxyAsync() {
    return hostileProxy();
  }
  @Get('/thenable') thenable() {
    return {
      // biome-ignore lint/suspicious/noThenProperty: a handler returning a hostile thenable is the case under test
      then() {
        throw new Error('then threw');
      },
    };
  }
  @Get('/status-abc') statusAbc() {
    throw forgedHttpError('abc');
  }
  @Get('/status-700') async status700() {
    throw forgedHttpError(700);
  }
  @Get('/status-2.5') status25() {
    throw forgedHttpError(402.5);
  }
  @Get('/status-101') @HttpStatus(101) status101() {
    return { early: true };
  }
  @Get('/chain-proxy', passThrough) chainProxy() {
    throw hostileProxy();
  }
  @Get('/chain-status', passThrough) chainStatus() {
    throw forgedHttpError('abc');
  }
}

let server: Started;
let port: number;
const Unsendable = suite('unsendable values from handlers');
Unsendable.before(async () => {
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
  // keep-alive outlasts the suite: pooled client sockets are never closed under a request
  server = await start({
    controllers: [UnsendableController],
    keepAliveTimeout: 60_000,
    onError: (error) => {
      reported.push(error);
    },
  });
  port = Number(new URL(server.base).port);
});
Unsendable.before.each(() => {
  reported.length = 0;
});
Unsendable.after(async () => {
  await server.close();
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onUncaught);
});

const internal = { error: 'Internal Server Error', message: 'Internal Server Error' };
const bytesFromInput = ['%01', '%00', '%7F', '%E2%82%AC', 'a%0D%0Ab', '%1B[31m'];

/** One request over a raw socket: the status and body, and proof that the process still serves. */
async function expect500(path: string): Promise<string> {
  const reply = await raw(port, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  assert.equal(reply.statuses, [500], `${path}: ${JSON.stringify(reply.text.slice(0, 200))}`);
  assert.ok(reply.text.endsWith(JSON.stringify(internal)), `${path} has the JSON error body`);
  assert.not.match(reply.text, /x-echo/i, `${path} sends none of the refused headers`);
  const after = await request(server.base, '/u/ok');
  assert.is(after.status, 200, `the server still serves after ${path}`);
  assert.equal(escaped, [], `nothing escaped the server after ${path}`);
  return reply.text;
}

function onlyReport(): unknown {
  assert.is(reported.length, 1, 'reported once');
  return reported[0];
}

Unsendable('setResponseHeader refuses header bytes from input with a KILN040 TypeError: 500, still serving', async () => {
  for (const bytes of bytesFromInput) {
    for (const path of ['/u/recorded', '/u/recorded-async']) {
      reported.length = 0;
      await expect500(`${path}?v=${bytes}`);
      const error = onlyReport() as KilnError;
      assert.instance(error, TypeError);
      assert.is(error.code, 'KILN040');
      assert.match(error.message, /^setResponseHeader\("x-echo", \.\.\.\) refused: its value has a character HTTP cannot carry/);
    }
  }
});

Unsendable('setResponseHeader refuses a header name from input that is not a token: 500, still serving', async () => {
  for (const name of ['x%01', 'a%20b', 'x%E2%82%AC', '', 'x:y']) {
    reported.length = 0;
    await expect500(`/u/recorded-name?v=${name}`);
    assert.is((onlyReport() as KilnError).code, 'KILN040');
  }
});

Unsendable('setResponseHeader refuses framing headers, which Kiln writes itself', async () => {
  for (const name of [
    'content-length',
    'Transfer-Encoding',
    'connection',
    'keep-alive',
    'upgrade',
    'te',
    'trailer',
    'proxy-authenticate',
  ]) {
    reported.length = 0;
    await expect500(`/u/recorded-name?v=${name}`);
    const error = onlyReport() as KilnError;
    assert.is(error.code, 'KILN040');
    assert.match(error.message, /a connection or framing header, which Kiln writes itself/);
  }
});

Unsendable('a returned Response with header bytes from input answers a reported 500 (KILN041 or the Headers TypeError)', async () => {
  for (const bytes of bytesFromInput) {
    for (const path of ['/u/response', '/u/response-async', '/u/response-stream']) {
      reported.length = 0;
      await expect500(`${path}?v=${bytes}`);
      const error = onlyReport() as KilnError;
      assert.instance(error, TypeError, `${path}?v=${bytes}`);
      // \x01, DEL and ESC pass a web Headers but not Node's writer; CR, LF, NUL and € are refused by Headers itself.
      if (['%01', '%7F', '%1B[31m'].includes(bytes)) assert.is(error.code, 'KILN041', `${path}?v=${bytes}`);
    }
  }
});

Unsendable('a returned Response with a header name from input answers 500', async () => {
  for (const name of ['x%01', 'a%20b', 'x%E2%82%AC']) {
    reported.length = 0;
    await expect500(`/u/response-name?v=${name}`);
    assert.instance(onlyReport(), TypeError);
  }
});

Unsendable('a thrown, rejected or returned Proxy whose traps throw answers 500 and is reported as KILN044', async () => {
  for (const path of ['/u/throw-proxy', '/u/reject-proxy', '/u/chain-proxy']) {
    reported.length = 0;
    await expect500(path);
    assert.is((onlyReport() as KilnError).code, 'KILN044', path);
  }
  for (const path of ['/u/return-proxy', '/u/return-proxy-async', '/u/thenable']) {
    reported.length = 0;
    await expect500(path);
    assert.is(reported.length, 1, `${path} reported once`);
  }
});

Unsendable('an HttpError-like object with an impossible status answers 500 and is reported as KILN042', async () => {
  for (const path of ['/u/status-abc', '/u/status-700', '/u/status-2.5', '/u/chain-status', '/u/status-101']) {
    reported.length = 0;
    await expect500(path);
    const error = onlyReport() as KilnError;
    assert.instance(error, KilnError, path);
    assert.is(error.code, 'KILN042', path);
  }
});

Unsendable('the same requests through app.fetch answer 500 and never throw', async () => {
  for (const path of ['/u/recorded?v=%01', '/u/throw-proxy', '/u/status-abc', '/u/chain-status', '/u/response-name?v=a%20b']) {
    const response = await server.app.fetch(new Request(`http://localhost${path}`));
    assert.is(response.status, 500, path);
    assert.equal(await response.json(), internal, path);
  }
  assert.equal(escaped, []);
});

Unsendable.run();
