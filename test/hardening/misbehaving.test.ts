import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get, compiledBinder, type KilnRequest } from '@kiln/core';
import { start, request, type Started } from '../support/server.js';
import { raw } from '../support/raw.js';
import { event } from '../support/fake-timers.js';

const logged: { error: unknown; path: string }[] = [];
/** Events of the broken-stream test: the client has the first part; the failure was logged. */
const firstPartReceived = event();
const streamFailureLogged = event();

@Controller('/bad')
class MisbehavingController {
  @Get('/reject') reject() {
    return Promise.reject(new Error('rejected with a secret'));
  }
  @Get('/reject-value') rejectValue() {
    return Promise.reject(42);
  }
  @Get('/throw-null') throwNull() {
    throw null;
  }
  @Get('/broken-stream') brokenStream() {
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent) {
          // fails once the client has received the head and the first part
          await firstPartReceived.promise;
          return controller.error(new Error('disk read failed'));
        }
        sent = true;
        controller.enqueue(new TextEncoder().encode('first part;'));
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/plain' } });
  }
  @Get('/failing-stream') failingStream() {
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error('file not found'));
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/plain', 'x-kept': 'no' } });
  }
  @Get('/used-body') async usedBody() {
    const response = new Response('already read');
    await response.text();
    return response;
  }
  @Get('/locked-body') lockedBody() {
    const response = new Response('locked');
    response.body!.getReader();
    return response;
  }
  @Get('/crlf-response')
  @compiledBinder((req: KilnRequest) => [req.query.v])
  crlfResponse(value: string) {
    return new Response('x', { headers: { 'x-echo': value } });
  }
  @Get('/crlf-recorded')
  @compiledBinder((req: KilnRequest) => [req, req.query.v])
  crlfRecorded(req: KilnRequest, value: string) {
    req.setResponseHeader('x-echo', value);
    return 'x';
  }
}

let server: Started;
let port: number;
const Misbehaving = suite('misbehaving handlers');
Misbehaving.before(async () => {
  server = await start({
    controllers: [MisbehavingController],
    onError: (error, req) => {
      logged.push({ error, path: req.path });
      if (req.path === '/bad/broken-stream') streamFailureLogged.resolve();
    },
  });
  port = Number(new URL(server.base).port);
});
Misbehaving.before.each(() => {
  logged.length = 0;
});
Misbehaving.after(() => server.close());

const internal = { error: 'Internal Server Error', message: 'Internal Server Error' };

Misbehaving('a rejected promise answers 500 without its message and is logged once', async () => {
  const reply = await request(server.base, '/bad/reject');
  assert.is(reply.status, 500);
  assert.equal(reply.json(), internal);
  assert.is(logged.length, 1);
  assert.is((logged[0]!.error as Error).message, 'rejected with a secret');
});

Misbehaving('rejecting or throwing non-Error values answers 500', async () => {
  for (const path of ['/bad/reject-value', '/bad/throw-null']) {
    const reply = await request(server.base, path);
    assert.is(reply.status, 500, path);
    assert.equal(reply.json(), internal);
  }
  assert.equal(
    logged.map((entry) => entry.error),
    [42, null],
  );
});

Misbehaving('a Response whose body stream fails mid-way cuts the connection and is logged once', async () => {
  const reply = await raw(port, 'GET /bad/broken-stream HTTP/1.1\r\nHost: x\r\n\r\n', {
    onData: (received) => {
      if (received.includes('first part;')) firstPartReceived.resolve();
    },
  });
  assert.equal(reply.statuses, [200]);
  assert.ok(reply.closed);
  assert.ok(reply.text.includes('first part;'));
  assert.not.ok(/\r\n0\r\n\r\n$/.test(reply.text), 'the chunked body is not terminated as if complete');
  await streamFailureLogged.promise;
  assert.is(logged.length, 1);
  assert.is((await request(server.base, '/bad/reject-value')).status, 500, 'the server still serves');
});

Misbehaving('a Response whose body stream fails before any byte is sent answers a reported 500 without its headers', async () => {
  const reply = await raw(port, 'GET /bad/failing-stream HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  assert.equal(reply.statuses, [500]);
  assert.not.match(reply.text, /x-kept/);
  assert.ok(reply.text.endsWith(JSON.stringify(internal)));
  assert.is(logged.length, 1);
  assert.is((logged[0]!.error as Error).message, 'file not found');
});

Misbehaving('a Response whose body is already read or locked answers 500 with a status line, reported as KILN043', async () => {
  for (const path of ['/bad/used-body', '/bad/locked-body']) {
    logged.length = 0;
    const reply = await raw(port, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    assert.equal(reply.statuses, [500], path);
    assert.ok(reply.text.endsWith(JSON.stringify(internal)), path);
    assert.is(logged.length, 1, path);
    assert.is((logged[0]!.error as { code?: string }).code, 'KILN043', path);
    assert.is((await request(server.base, '/bad/reject-value')).status, 500, 'the server still serves');
  }
});

Misbehaving('a header value with CR/LF from user input is refused, never injected', async () => {
  for (const path of ['/bad/crlf-response', '/bad/crlf-recorded']) {
    const reply = await raw(port, `GET ${path}?v=a%0D%0ASet-Cookie:%20evil=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    assert.equal(reply.statuses, [500], path);
    assert.not.match(reply.text, /set-cookie/i);
    assert.not.match(reply.text, /evil/);
  }
});

Misbehaving.run();
