import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get, Post, compiledBinder, cors, type KilnRequest } from '@kiln/core';
import { rateLimit } from '@kiln/rate-limit';
import { start, request, type Started } from '../support/server.js';
import { raw, lastJsonBody } from '../support/raw.js';
import { parseResponses } from './support/http-responses.js';

// Requests that ask for something other than an HTTP answer on this connection: a protocol switch
// (Upgrade), a tunnel (CONNECT), an expectation (Expect). Each is answered with the JSON error
// body, and the connection is closed where its next bytes cannot be trusted.

@Controller('/p')
class ProtocolController {
  @Get('/ok') ok() {
    return { ok: true };
  }
  @Post('/echo')
  @compiledBinder(async (req: KilnRequest) => [await req.text()])
  echo(text: string) {
    return { text };
  }
}

let server: Started;
let port: number;
const reported: unknown[] = [];
const Protocol = suite('protocol requests: Upgrade, CONNECT, Expect');
Protocol.before(async () => {
  server = await start({
    controllers: [ProtocolController],
    middlewares: [cors({ origin: ['https://app.example'] }), rateLimit({ max: 10_000 })],
    maxBodySize: 1024,
    keepAliveTimeout: 60_000,
    onError: (error) => {
      reported.push(error);
    },
  });
  port = Number(new URL(server.base).port);
});
Protocol.after(async () => {
  await server.close();
  assert.equal(reported, [], 'no request in this suite is a server-side error');
});

const websocket =
  'GET /p/ok HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n';
const next = 'GET /p/ok HTTP/1.1\r\nHost: x\r\n\r\n';

async function stillServes(): Promise<void> {
  assert.is((await request(server.base, '/p/ok')).status, 200, 'the server still serves');
}

Protocol('Upgrade: websocket that nothing accepts answers 400 with the JSON error body and closes the connection', async () => {
  for (const upgrade of [
    websocket,
    websocket.replace('websocket', 'h2c'),
    websocket.replace('Connection: Upgrade', 'Connection: keep-alive, upgrade'),
  ]) {
    const reply = await raw(port, upgrade + next, { wait: 3000 });
    assert.equal(reply.statuses, [400], 'one answer: the pipelined request behind it is not served on an untrusted connection');
    assert.ok(reply.closed, 'the connection is closed, not left hanging');
    const [answer] = parseResponses(reply.text);
    assert.equal(answer!.headers.connection, ['close']);
    assert.equal(answer!.headers['content-type'], ['application/json; charset=utf-8']);
    assert.equal(lastJsonBody(reply), {
      error: 'Bad Request',
      message: 'This server does not switch protocols: Upgrade is not supported',
    });
  }
  await stillServes();
});

Protocol('an Upgrade header without Connection: upgrade is no upgrade: the request is served and the connection stays usable', async () => {
  const reply = await raw(port, `GET /p/ok HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n\r\n${next}`, { responses: 2 });
  assert.equal(reply.statuses, [200, 200]);
});

Protocol('CONNECT answers 501 with the JSON error body and closes the connection', async () => {
  for (const target of ['example.com:443', '127.0.0.1:22']) {
    const reply = await raw(port, `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n${next}`, { wait: 3000 });
    assert.equal(reply.statuses, [501], target);
    assert.ok(reply.closed);
    assert.equal(parseResponses(reply.text)[0]!.headers.connection, ['close']);
    assert.equal(lastJsonBody(reply), { error: 'Not Implemented', message: 'CONNECT is not supported: this server is not a proxy' });
  }
  await stillServes();
});

const tooLarge = { error: 'Payload Too Large', message: 'Request body is larger than the limit of 1024 bytes' };

Protocol('Expect: 100-continue with a Content-Length over maxBodySize answers 413 without a 100, and closes', async () => {
  for (const [path, expect] of [
    ['/p/echo', '100-continue'],
    ['/p/echo', '100-Continue'],
    ['/p/none', '100-continue'],
  ]) {
    // The client waits for the 100 before sending its body: it is never sent here.
    const reply = await raw(port, `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 5000000\r\nExpect: ${expect}\r\n\r\n`, {
      wait: 3000,
    });
    assert.not.match(reply.text, '100 Continue', `${path} ${expect}`);
    assert.equal(reply.statuses, [413], `${path} ${expect}`);
    assert.ok(reply.closed);
    assert.equal(lastJsonBody(reply), tooLarge);
  }
  await stillServes();
});

Protocol('Expect: 100-continue within maxBodySize gets its 100, then the answer; the connection stays usable', async () => {
  const head = 'POST /p/echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n';
  const reply = await raw(port, '', { pieces: [head, 'hello', next], pause: 150, responses: 3 });
  assert.match(reply.text, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
  assert.equal(reply.statuses, [100, 200, 200]);
  assert.ok(reply.text.includes('{"text":"hello"}'));
});

Protocol('Expect: 100-continue on a head that is refused gets the refusal without a 100', async () => {
  const reply = await raw(port, 'POST /p/echo HTTP/1.1\r\nHost: a\r\nHost: b\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n');
  assert.equal(reply.statuses, [400]);
  assert.equal(lastJsonBody(reply), { error: 'Bad Request', message: 'The request has more than one Host header' });
});

Protocol('any other Expect answers 417 with the JSON error body; the connection stays usable', async () => {
  for (const expect of ['something', '200-ok', 'continue']) {
    const reply = await raw(port, `GET /p/ok HTTP/1.1\r\nHost: x\r\nExpect: ${expect}\r\n\r\n${next}`, { responses: 2 });
    assert.equal(reply.statuses, [417, 200], expect);
    const [refused] = parseResponses(reply.text);
    assert.equal(JSON.parse(refused!.body), {
      error: 'Expectation Failed',
      message: 'The only expectation this server meets is Expect: 100-continue',
    });
  }
});

Protocol.run();
