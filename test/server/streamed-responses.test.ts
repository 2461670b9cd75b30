// A returned Response's body is copied to the socket chunk by chunk (src/adapter/node/web-response-to-node.ts):
// large bodies arrive whole through backpressure, a client that goes away cancels the source
// stream, and neither is reported as an error.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import { Controller, Get } from '@kiln/core';
import { start, type Started } from '../support/server.js';

const chunkSize = 64 * 1024;
const chunks = 160; // 10 MiB: far more than the socket buffers, so the copy waits for 'drain'
const reported: unknown[] = [];
let cancelled: (reason: unknown) => void;
const cancellation = new Promise<unknown>((resolve) => (cancelled = resolve));

@Controller('/stream')
class StreamController {
  @Get('/large') large() {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === chunks) return controller.close();
        controller.enqueue(new Uint8Array(chunkSize).fill(sent % 256));
        sent++;
      },
    });
    return new Response(body, { headers: { 'content-type': 'application/octet-stream' } });
  }

  @Get('/text') text() {
    return new Response('id,name\n1,Ada — café\n', { headers: { 'content-type': 'text/csv; charset=utf-8' } });
  }

  @Get('/endless') endless() {
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(chunkSize));
        return new Promise((resolve) => setTimeout(resolve, 5));
      },
      cancel(reason) {
        cancelled(reason);
      },
    });
    return new Response(body, { headers: { 'content-type': 'application/octet-stream' } });
  }
}

let server: Started;
test.before(async () => {
  server = await start({
    controllers: [StreamController],
    onError: (error) => {
      reported.push(error);
    },
  });
});
test.after(() => server.close());

test('a 10 MiB streamed body arrives whole and in order, read slowly by the client', async () => {
  const response = await fetch(`${server.base}/stream/large`);
  assert.is(response.status, 200);
  const reader = response.body!.getReader();
  const received: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received.push(value);
    if (received.length % 20 === 0) await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const bytes = Buffer.concat(received);
  assert.is(bytes.length, chunkSize * chunks);
  for (let i = 0; i < chunks; i++) assert.is(bytes[i * chunkSize], i % 256, `chunk ${i}`);
  assert.equal(reported, []);
});

test('a Response built from a string is sent in one piece with its Content-Length; a stream body is chunked', async () => {
  const text = await fetch(`${server.base}/stream/text`);
  assert.is(text.status, 200);
  assert.is(text.headers.get('content-type'), 'text/csv; charset=utf-8');
  assert.is(text.headers.get('content-length'), String(Buffer.byteLength('id,name\n1,Ada — café\n')));
  assert.is(await text.text(), 'id,name\n1,Ada — café\n');
  // Where undici keeps the global Response's string under a 'state' symbol (Node 20 to 24), a HEAD
  // tells its length without reading it; Node 26's undici keeps it in a private field, so there a
  // HEAD, which never reads the body, has no Content-Length.
  const sourceReadable = Object.getOwnPropertySymbols(new globalThis.Response('x')).some((symbol) => symbol.description === 'state');
  const head = await fetch(`${server.base}/stream/text`, { method: 'HEAD' });
  assert.is(head.headers.get('content-length'), sourceReadable ? String(Buffer.byteLength('id,name\n1,Ada — café\n')) : null);
  const streamed = await fetch(`${server.base}/stream/large`);
  assert.is(streamed.headers.get('transfer-encoding'), 'chunked');
  await streamed.arrayBuffer();
});

test('a client that goes away mid-stream cancels the source stream; nothing is reported', async () => {
  await new Promise<void>((resolve, reject) => {
    const request = http.get(`${server.base}/stream/endless`, (response) => {
      assert.is(response.statusCode, 200);
      response.once('data', () => {
        request.destroy();
        resolve();
      });
    });
    request.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error)));
  });
  // Resolves only when the writer cancelled the source stream.
  await cancellation;
  // The writer settles after the cancellation (its pending read, then one setImmediate): let it.
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(reported, []);
});

test.run();
