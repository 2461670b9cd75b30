import http from 'node:http';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get, compiledBinder, type KilnRequest } from '@kiln/core';
import { start, type Started } from '../support/server.js';
import { raw } from '../support/raw.js';
import { parseResponses, type Parsed } from './support/http-responses.js';

// Kiln owns the framing of a returned Response: whatever headers a handler's Response carries,
// each answer on a keep-alive connection must end exactly where the next begins.

let upstream: http.Server;
let upstreamBase: string;

/** Records a header, as a rate limiter does: the fetched Response is then re-wrapped to add it. */
const recordHeader = (req: KilnRequest) => {
  req.setResponseHeader('x-recorded', 'yes');
};

@Controller('/frame')
class FramingController {
  @Get('/ok') ok() {
    return { ok: true };
  }
  @Get('/short-length') shortLength() {
    return new Response('hello world', { headers: { 'content-length': '2' } });
  }
  @Get('/long-length') longLength() {
    return new Response('hello', { headers: { 'content-length': '100' } });
  }
  @Get('/both') both() {
    return new Response('hello', { headers: { 'transfer-encoding': 'chunked', 'content-length': '5' } });
  }
  @Get('/hop-by-hop') hopByHop() {
    return new Response('hello', {
      headers: {
        connection: 'close, x-hop',
        'x-hop': 'secret',
        'keep-alive': 'timeout=99',
        upgrade: 'websocket',
        te: 'trailers',
        trailer: 'x-sum',
        'proxy-authenticate': 'Basic',
        'proxy-connection': 'keep-alive',
        'x-kept': 'yes',
      },
    });
  }
  @Get('/stream') stream() {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent > 0) await new Promise((resolve) => setTimeout(resolve, 5));
        if (sent === 3) return controller.close();
        controller.enqueue(new TextEncoder().encode(`part${sent++};`));
      },
    });
    return new Response(body, { headers: { 'content-length': '3' } });
  }
  @Get('/empty') empty() {
    return new Response('', { headers: { 'content-length': '10' } });
  }
  @Get('/proxy')
  @compiledBinder((req: KilnRequest) => [req.query.coding])
  proxy(coding: string) {
    return fetch(`${upstreamBase}/${coding}`);
  }
  @Get('/proxy-recorded', recordHeader)
  @compiledBinder((req: KilnRequest) => [req.query.coding])
  proxyRecorded(coding: string) {
    return fetch(`${upstreamBase}/${coding}`);
  }
}

let server: Started;
let port: number;
const reported: unknown[] = [];
const Framing = suite('framing of returned Responses');
Framing.before(async () => {
  upstream = http.createServer((req, res) => {
    const coding = req.url!.slice(1);
    const text = 'upstream body '.repeat(20);
    const body = coding === 'gzip' ? zlib.gzipSync(text) : coding === 'br' ? zlib.brotliCompressSync(text) : Buffer.from(text);
    res.writeHead(200, {
      'content-type': 'text/plain',
      'content-encoding': coding,
      'content-length': body.length,
      'keep-alive': 'timeout=99',
    });
    res.end(body);
  });
  // fetch pools its upstream connections: they must not be closed under a request
  upstream.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamBase = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  server = await start({
    controllers: [FramingController],
    onError: (error) => {
      reported.push(error);
    },
  });
  port = Number(new URL(server.base).port);
});
Framing.after(async () => {
  await server.close();
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
  assert.equal(reported, [], 'no request in this suite is a server-side error');
});

/** `path`, then `/frame/ok`, pipelined on one keep-alive connection. */
async function pipelined(path: string): Promise<Parsed[]> {
  const request = (target: string) => `GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`;
  const reply = await raw(port, request(path) + request('/frame/ok') + 'GET /frame/ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  assert.ok(reply.closed, 'the server closed after the last request');
  const parsed = parseResponses(reply.text);
  assert.equal(
    parsed.map((r) => r.status),
    [200, 200, 200],
    path,
  );
  assert.equal(
    parsed.slice(1).map((r) => r.body),
    ['{"ok":true}', '{"ok":true}'],
    `${path}: the next answers start where they should`,
  );
  return parsed;
}

Framing('a Content-Length shorter or longer than the body is replaced by the true length', async () => {
  const [short] = await pipelined('/frame/short-length');
  assert.equal(short!.headers['content-length'], ['11']);
  assert.is(short!.body, 'hello world');
  const [long] = await pipelined('/frame/long-length');
  assert.equal(long!.headers['content-length'], ['5']);
  assert.is(long!.body, 'hello');
  const [empty] = await pipelined('/frame/empty');
  assert.equal(empty!.headers['content-length'], ['0']);
});

Framing("Transfer-Encoding and Content-Length on one Response: only Kiln's own framing is sent", async () => {
  const [both] = await pipelined('/frame/both');
  assert.equal(both!.headers['content-length'], ['5']);
  assert.is(both!.headers['transfer-encoding'], undefined);
  assert.is(both!.body, 'hello');
});

Framing('hop-by-hop headers, and those the Connection header names, are never copied', async () => {
  const [hop] = await pipelined('/frame/hop-by-hop');
  for (const name of ['x-hop', 'upgrade', 'te', 'trailer', 'proxy-authenticate', 'proxy-connection'])
    assert.is(hop!.headers[name], undefined, name);
  assert.equal(hop!.headers.connection, ['keep-alive'], "Node's own connection header, not the Response's close");
  assert.equal(hop!.headers['keep-alive'], ['timeout=5'], "Node's own keep-alive, not the Response's");
  assert.equal(hop!.headers['x-kept'], ['yes']);
});

Framing('a body that takes several turns is streamed chunked, without the declared Content-Length', async () => {
  const [streamed] = await pipelined('/frame/stream');
  assert.equal(streamed!.headers['transfer-encoding'], ['chunked']);
  assert.is(streamed!.headers['content-length'], undefined);
  assert.is(streamed!.body, 'part0;part1;part2;');
});

Framing('return fetch(upstream): a body fetch decoded loses Content-Encoding and the upstream Content-Length', async () => {
  for (const coding of ['gzip', 'br']) {
    const [proxied] = await pipelined(`/frame/proxy?coding=${coding}`);
    assert.is(proxied!.headers['content-encoding'], undefined, coding);
    assert.is(proxied!.body, 'upstream body '.repeat(20), coding);
    assert.equal(proxied!.headers['keep-alive'], ['timeout=5'], coding);
    assert.equal(proxied!.headers['content-type'], ['text/plain']);
  }
});

Framing('return fetch(upstream) behind a middleware that records headers: still decoded, still framed by Kiln', async () => {
  const [proxied] = await pipelined('/frame/proxy-recorded?coding=gzip');
  assert.is(proxied!.headers['content-encoding'], undefined);
  assert.equal(proxied!.headers['x-recorded'], ['yes']);
  assert.is(proxied!.body, 'upstream body '.repeat(20));
});

Framing('return fetch(upstream): a coding fetch does not decode keeps its Content-Encoding', async () => {
  const [proxied] = await pipelined('/frame/proxy?coding=x-custom');
  assert.equal(proxied!.headers['content-encoding'], ['x-custom']);
  assert.is(proxied!.body, 'upstream body '.repeat(20));
});

Framing.run();
