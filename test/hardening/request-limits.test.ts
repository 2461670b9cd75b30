import http from 'node:http';
import net from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get, Post, compiledBinder, createServer, type KilnRequest } from '@kiln/core';
import { start, request, type Started } from '../support/server.js';
import { raw, lastJsonBody } from '../support/raw.js';
import { stallingSize } from './support/stalling-size.js';

// Limits that hold on every way in: the body stream, the number of header lines, the Host header,
// and a client that stops reading what it asked for.

let cancelled = 0;

const bigSize = stallingSize();

/** Reads `req.body` in one of the ways a handler can, and answers the byte count. */
async function readStream(req: KilnRequest, how: string): Promise<number> {
  const body = req.body!;
  if (how === 'reader') {
    const reader = body.getReader();
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return size;
      size += value.byteLength;
    }
  }
  if (how === 'iterate') {
    let size = 0;
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) size += chunk.byteLength;
    return size;
  }
  return (await new Response(body).arrayBuffer()).byteLength;
}

@Controller('/limits')
class LimitsController {
  @Get('/ok') ok() {
    return { ok: true };
  }
  @Post('/stream')
  @compiledBinder((req: KilnRequest) => [req, req.query.how])
  async stream(req: KilnRequest, how: string) {
    return { size: await readStream(req, how) };
  }
  // Bodies a client that reads nothing stalls (see stallingSize).
  @Get('/bigjson') bigJson() {
    return { items: Array.from({ length: bigSize / 2 ** 20 }, () => 'j'.repeat(2 ** 20)) };
  }
  @Get('/bigbytes') bigBytes() {
    return new Response(new Uint8Array(bigSize).fill(98), { headers: { 'content-type': 'application/octet-stream' } });
  }
  @Get('/endless') endless() {
    const chunk = new Uint8Array(64 * 1024).fill(120);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(chunk);
      },
      cancel() {
        cancelled++;
      },
    });
    return new Response(body, { headers: { 'content-type': 'application/octet-stream' } });
  }
}

let server: Started;
let port: number;
let few: Started;
const reported: unknown[] = [];
const Limits = suite('request limits');
Limits.before(async () => {
  const onError = (error: unknown) => {
    reported.push(error);
  };
  server = await start({ controllers: [LimitsController], maxBodySize: 1024, sendTimeout: 300, keepAliveTimeout: 60_000, onError });
  port = Number(new URL(server.base).port);
  few = await start({ controllers: [LimitsController], maxHeadersCount: 10, onError });
});
Limits.after(async () => {
  await server.close();
  await few.close();
  assert.equal(reported, [], 'no request in this suite is a server-side error');
});

const tooLarge = { error: 'Payload Too Large', message: 'Request body is larger than the limit of 1024 bytes' };

async function stillServes(): Promise<void> {
  assert.is((await request(server.base, '/limits/ok')).status, 200, 'the server still serves');
}

Limits('req.body, read any way, answers 413 once a chunked body crosses maxBodySize, and closes the connection', async () => {
  for (const how of ['reader', 'iterate', 'response']) {
    const pieces = [`POST /limits/stream?how=${how} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n`];
    for (let i = 0; i < 16; i++) pieces.push(`200\r\n${'x'.repeat(0x200)}\r\n`);
    const reply = await raw(port, '', { pieces, pause: 10 });
    assert.equal(reply.statuses, [413], how);
    assert.ok(reply.closed, `${how}: the rest is never read, the connection is closed`);
    assert.equal(lastJsonBody(reply), tooLarge, how);
  }
  await stillServes();
});

Limits('req.body under maxBodySize streams every byte', async () => {
  for (const how of ['reader', 'iterate', 'response']) {
    const reply = await raw(
      port,
      `POST /limits/stream?how=${how} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n200\r\n${'x'.repeat(0x200)}\r\n100\r\n${'y'.repeat(0x100)}\r\n0\r\n\r\n`,
    );
    assert.equal(reply.statuses, [200], how);
    assert.equal(lastJsonBody(reply), { size: 0x300 }, how);
  }
});

Limits('req.body through app.fetch honours maxBodySize too', async () => {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < 4; i++) controller.enqueue(new Uint8Array(512));
      controller.close();
    },
  });
  const response = await server.app.fetch(
    new Request('http://localhost/limits/stream?how=reader', { method: 'POST', body, duplex: 'half' } as RequestInit),
  );
  assert.is(response.status, 413);
  assert.equal(await response.json(), tooLarge);
  const small = await server.app.fetch(
    new Request('http://localhost/limits/stream?how=iterate', { method: 'POST', body: 'x'.repeat(1000) }),
  );
  assert.equal(await small.json(), { size: 1000 });
});

function headLines(count: number): string {
  let lines = '';
  // short repeated lines: 2,000 of them stay well under maxHeaderSize
  for (let i = 0; i < count; i++) lines += 'a:1\r\n';
  return lines;
}

Limits('more than 1,000 header lines answer 431 and close the connection; 1,000 are served', async () => {
  for (const count of [999, 1000, 1001, 2000]) {
    // Host is one of the lines
    const reply = await raw(port, `GET /limits/ok HTTP/1.1\r\nHost: x\r\n${headLines(count - 1)}Connection: close\r\n\r\n`);
    // Connection: close is one more line
    const expected = count + 1 > 1000 ? 431 : 200;
    assert.equal(reply.statuses, [expected], `${count + 1} lines`);
    if (expected === 431) {
      assert.ok(reply.closed);
      // From Node 22 on, the parser refuses a head past maxHeadersCount itself (a header overflow,
      // answered by Kiln's clientError handler) before Kiln counts the lines: same status, its message.
      const counted = 'The request has more than 1000 header lines';
      const overflowed = 'Request line and headers are larger than the server accepts';
      const sent = (lastJsonBody(reply) as { message?: unknown }).message;
      const message = Number(process.versions.node.split('.')[0]) >= 22 && sent !== counted ? overflowed : counted;
      assert.equal(lastJsonBody(reply), { error: 'Request Header Fields Too Large', message });
    }
  }
  const exactly = await raw(port, `GET /limits/ok HTTP/1.1\r\nHost: x\r\n${headLines(999)}\r\n`, { responses: 1 });
  assert.equal(exactly.statuses, [200], 'exactly 1,000 lines');
  await stillServes();
});

Limits('maxHeadersCount is a createServer option', async () => {
  const fewPort = Number(new URL(few.base).port);
  const ten = await raw(fewPort, `GET /limits/ok HTTP/1.1\r\nHost: x\r\n${headLines(9)}\r\n`, { responses: 1 });
  assert.equal(ten.statuses, [200]);
  const eleven = await raw(fewPort, `GET /limits/ok HTTP/1.1\r\nHost: x\r\n${headLines(10)}\r\n`);
  assert.equal(eleven.statuses, [431]);
  assert.equal(lastJsonBody(eleven), { error: 'Request Header Fields Too Large', message: 'The request has more than 10 header lines' });
});

Limits('two Host headers answer 400 with the JSON error body and close the connection', async () => {
  for (const hosts of ['Host: a\r\nHost: b\r\n', 'Host: a\r\nhost: a\r\n', 'HOST: a\r\nX-A: 1\r\nhOsT: b\r\n']) {
    const reply = await raw(port, `GET /limits/ok HTTP/1.1\r\n${hosts}\r\n`);
    assert.equal(reply.statuses, [400], hosts);
    assert.ok(reply.closed);
    assert.equal(lastJsonBody(reply), { error: 'Bad Request', message: 'The request has more than one Host header' });
  }
  await stillServes();
});

Limits('an HTTP/1.1 request without Host answers 400 with the JSON error body; HTTP/1.0 needs none', async () => {
  const reply = await raw(port, 'GET /limits/ok HTTP/1.1\r\nX-A: 1\r\n\r\n');
  assert.equal(reply.statuses, [400]);
  assert.ok(reply.closed);
  assert.equal(lastJsonBody(reply), { error: 'Bad Request', message: 'The request has no Host header (HTTP/1.1 requires one)' });
  const old = await raw(port, 'GET /limits/ok HTTP/1.0\r\n\r\n');
  assert.match(old.text, /^HTTP\/1\.1 200 /);
  await stillServes();
});

Limits('a client that stops reading a streamed response is cut off after sendTimeout, and the stream is cancelled', async () => {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write('GET /limits/endless HTTP/1.1\r\nHost: x\r\n\r\n');
  socket.pause(); // never read: the server's writes back up
  await new Promise((resolve) => setTimeout(resolve, 1500));
  // Now drain whatever the server managed to send: an endless response would never end.
  const closed = new Promise<boolean>((resolve) => {
    socket.on('close', () => resolve(true));
    socket.on('error', () => resolve(true));
    setTimeout(() => resolve(false), 10_000);
  });
  socket.on('data', () => {});
  socket.resume();
  assert.ok(await closed, 'the server cut the connection');
  socket.destroy();
  assert.is(cancelled, 1, 'the body stream was cancelled');
  await stillServes();
});

/** Connects, sends `payload`, reads the head of the answer, then reads nothing more. */
async function stalledClient(port: number, payload: string): Promise<net.Socket> {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(payload);
  // The head is out once the first bytes arrive: the answer has started, and so has its deadline.
  await new Promise((resolve) => socket.once('data', resolve));
  socket.pause();
  return socket;
}

/** Resumes a stalled client and counts what it still gets; true in `closed` when the server had cut it. */
async function drainStalled(socket: net.Socket): Promise<{ closed: boolean; bytes: number }> {
  let bytes = 0;
  const closed = new Promise<boolean>((resolve) => {
    socket.on('close', () => resolve(true));
    setTimeout(() => resolve(false), 10_000);
  });
  socket.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
  });
  socket.resume();
  const result = { closed: await closed, bytes };
  socket.destroy();
  return result;
}

Limits('a client that never reads a large answer of known length (JSON or bytes) is cut off after sendTimeout', async () => {
  for (const path of ['/limits/bigjson', '/limits/bigbytes']) {
    const socket = await stalledClient(port, `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const { closed, bytes } = await drainStalled(socket);
    assert.ok(closed, `${path}: the server cut the connection`);
    assert.ok(bytes < bigSize, `${path}: the answer was not delivered (${bytes} bytes after the stall)`);
  }
  await stillServes();
});

Limits(
  'app.handler in your own server: a stalled answer, and the one pipelined behind it, are dropped when sendTimeout passes',
  async () => {
    const app = createServer({ controllers: [LimitsController], sendTimeout: 200, onError: (e) => reported.push(e) });
    // Node emits 'finish' even for an answer whose socket was destroyed: what tells is the socket.
    const outcomes: { path: string; socketDestroyed: boolean }[] = [];
    let done!: () => void;
    const bothClosed = new Promise<void>((resolve) => {
      done = resolve;
    });
    const own = http.createServer((incoming, response) => {
      const socket = incoming.socket;
      response.on('close', () => {
        outcomes.push({ path: incoming.url!, socketDestroyed: socket.destroyed });
        if (outcomes.length === 2) done();
      });
      app.handler(incoming, response);
    });
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
    const ownPort = (own.address() as net.AddressInfo).port;
    const socket = await stalledClient(
      ownPort,
      'GET /limits/bigjson HTTP/1.1\r\nHost: x\r\n\r\nGET /limits/bigbytes HTTP/1.1\r\nHost: x\r\n\r\n',
    );
    // A guard against "never", not a time limit: a loaded machine may be late by seconds.
    const guard = setTimeout(done, 15_000);
    await bothClosed;
    clearTimeout(guard);
    socket.destroy();
    own.closeAllConnections();
    own.close();
    assert.equal(
      outcomes.sort((a, b) => a.path.localeCompare(b.path)),
      [
        { path: '/limits/bigbytes', socketDestroyed: true },
        { path: '/limits/bigjson', socketDestroyed: true },
      ],
    );
    await app.close();
  },
);

Limits('a client that reads its large answer gets all of it', async () => {
  const big = await fetch(`${server.base}/limits/bigbytes`);
  assert.is((await big.arrayBuffer()).byteLength, bigSize);
  const json = await fetch(`${server.base}/limits/bigjson`);
  assert.is(((await json.json()) as { items: string[] }).items.length, bigSize / 2 ** 20);
});

Limits.run();
