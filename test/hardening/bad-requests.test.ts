import { connect } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get, Post, compiledBinder, type KilnRequest } from '@kiln/core';
import { start, request, type Started } from '../support/server.js';
import { raw, lastJsonBody } from '../support/raw.js';
import { event } from '../support/fake-timers.js';

const errors: unknown[] = [];
/** Events of the aborted-body test: /h/abort has begun reading its body; that read has ended. */
const bodyReading = event();
const bodySettled = event<'read' | 'failed'>();

@Controller('/h')
class HardenedController {
  @Get('/query') @compiledBinder((req: KilnRequest) => [req.query.q]) query(q: unknown) {
    return { q };
  }
  @Get('/:id') @compiledBinder((req: KilnRequest) => [req.params.id]) get(id: string) {
    return { id };
  }
  @Post('/body') @compiledBinder(async (req: KilnRequest) => [await req.parseBody()]) body(body: unknown) {
    return { body };
  }
  @Post('/abort')
  @compiledBinder(async (req: KilnRequest) => {
    bodyReading.resolve();
    const body = await req.parseBody().then(
      (value) => {
        bodySettled.resolve('read');
        return value;
      },
      (error) => {
        bodySettled.resolve('failed');
        throw error;
      },
    );
    return [body];
  })
  abort(body: unknown) {
    return { body };
  }
  @Post('/ignore') ignore() {
    return { ignored: true };
  }
}

let server: Started;
let port: number;
const Bad = suite('bad requests');
Bad.before(async () => {
  server = await start({
    controllers: [HardenedController],
    maxBodySize: 1024,
    requestTimeout: 600,
    headersTimeout: 400,
    onError: (error) => {
      errors.push(error);
    },
  });
  port = Number(new URL(server.base).port);
});
Bad.after(async () => {
  await server.close();
  assert.equal(errors, [], 'no request in this suite is a server-side error');
});

Bad('malformed percent-encoding in the query answers 400', async () => {
  const reply = await request(server.base, '/h/query?q=%E0%A4%A');
  assert.is(reply.status, 400);
  assert.equal(reply.json(), { error: 'Bad Request', message: 'Malformed percent-encoding in query string' });
});

Bad('malformed percent-encoding in a path parameter answers 400', async () => {
  const reply = await request(server.base, '/h/%ZZ');
  assert.is(reply.status, 400);
});

Bad('a request target over 8 KiB answers 414', async () => {
  const reply = await raw(port, `GET /h/query?q=${'a'.repeat(9000)} HTTP/1.1\r\nHost: x\r\n\r\n`, { responses: 1 });
  assert.equal(reply.statuses, [414]);
  assert.equal(lastJsonBody(reply), { error: 'URI Too Long', message: 'Request target is longer than 8192 bytes' });
});

Bad('headers over 16 KiB answer 431 and close the connection', async () => {
  const reply = await raw(port, `GET /h/1 HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(17 * 1024)}\r\n\r\n`);
  assert.equal(reply.statuses, [431]);
  assert.ok(reply.closed);
  assert.equal(lastJsonBody(reply), {
    error: 'Request Header Fields Too Large',
    message: 'Request line and headers are larger than the server accepts',
  });
});

Bad('a garbage request line answers 400 and closes the connection', async () => {
  const reply = await raw(port, 'HELLO THERE\r\n\r\n');
  assert.equal(reply.statuses, [400]);
  assert.ok(reply.closed);
  assert.equal(lastJsonBody(reply), { error: 'Bad Request', message: 'Malformed HTTP request' });
});

Bad('a declared Content-Length over maxBodySize answers 413 before the body is sent', async () => {
  for (const path of ['/h/body', '/h/ignore']) {
    const reply = await raw(port, `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n`);
    assert.equal(reply.statuses, [413], path);
    assert.ok(reply.closed, 'the connection is closed instead of reading the rest');
    assert.match(reply.text, /connection: close/i);
    assert.equal(lastJsonBody(reply), { error: 'Payload Too Large', message: 'Request body is larger than the limit of 1024 bytes' });
  }
});

Bad('a chunked body answers 413 as soon as it crosses maxBodySize, while the client is still sending', async () => {
  const chunk = `200\r\n${'x'.repeat(0x200)}\r\n`;
  const pieces = ['POST /h/body HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n'];
  for (let i = 0; i < 40; i++) pieces.push(chunk);
  const reply = await raw(port, '', { pieces, pause: 'turn' });
  assert.equal(reply.statuses, [413]);
  assert.ok(reply.closed);
  assert.ok(
    reply.piecesWritten < pieces.length,
    `answered after ${reply.piecesWritten} of ${pieces.length} pieces, before the rest was sent`,
  );
});

Bad('a Content-Length that promises more than is sent ends in 408 and a closed connection', async () => {
  // The wait is a hang guard: the server's own requestTimeout (600 ms) ends the request.
  const reply = await raw(port, 'POST /h/body HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":', {
    wait: 60_000,
  });
  assert.ok(reply.closed, 'closed by the request timeout');
  assert.equal(reply.statuses, [408]);
  assert.equal(lastJsonBody(reply), { error: 'Request Timeout', message: 'The request was not received in time' });
  assert.is((await request(server.base, '/h/1')).status, 200);
});

Bad('a request aborted mid-body leaves the server serving', async () => {
  const socket = connect(port, '127.0.0.1');
  socket.write('POST /h/abort HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"partial":');
  await bodyReading.promise; // the handler is reading the body the client will never finish
  socket.destroy();
  assert.is(await bodySettled.promise, 'failed', 'reading the rest of the body ends when the client goes');
  const after = await request(server.base, '/h/body', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"ok":1}',
  });
  assert.equal(after.json(), { body: { ok: 1 } });
});

Bad('an invalid JSON body read by parseBody answers 400 with the parse detail', async () => {
  const reply = await request(server.base, '/h/body', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":' });
  assert.is(reply.status, 400);
  assert.match(reply.json().message, /^Failed to parse JSON body: /);
});

Bad.run();
