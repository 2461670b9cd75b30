import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get, compiledBinder, type KilnRequest } from '@kiln/core';
import { start, type Started } from '../support/server.js';
import { raw } from '../support/raw.js';

@Controller('/c')
class ConnectionsController {
  @Get('/:n') @compiledBinder((req: KilnRequest) => [req.params.n]) echo(n: string) { return { n }; }
}

let server: Started;
let port: number;
const Connections = suite('connections');
Connections.before(async () => {
  server = await start({ controllers: [ConnectionsController], headersTimeout: 300, requestTimeout: 1000, keepAliveTimeout: 500 });
  port = Number(new URL(server.base).port);
});
Connections.after(() => server.close());

Connections('a slowloris client that never finishes its headers is cut off after headersTimeout', async () => {
  const pieces = ['GET /c/1 HTTP/1.1\r\n', 'Host: x\r\n'];
  for (let i = 0; i < 100; i++) pieces.push(`X-Slow-${i}: y\r\n`);
  const reply = await raw(port, '', { pieces, pause: 50, wait: 5000 });
  assert.ok(reply.closed, 'the server closed the connection');
  assert.ok(reply.elapsed < 2500, `closed after ${reply.elapsed} ms`);
  assert.ok(reply.statuses.length === 0 || reply.statuses[0] === 408, `got ${reply.statuses}`);
});

Connections('keep-alive serves several requests on one connection', async () => {
  const reply = await raw(port, '', {
    pieces: ['GET /c/1 HTTP/1.1\r\nHost: x\r\n\r\n', 'GET /c/2 HTTP/1.1\r\nHost: x\r\n\r\n', 'GET /c/3 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
    pause: 30,
  });
  assert.equal(reply.statuses, [200, 200, 200]);
  assert.ok(reply.text.indexOf('{"n":"1"}') < reply.text.indexOf('{"n":"2"}'));
  assert.ok(reply.text.indexOf('{"n":"2"}') < reply.text.indexOf('{"n":"3"}'));
  assert.ok(reply.closed);
});

Connections('pipelined requests are answered in order', async () => {
  const pipelined = 'GET /c/a HTTP/1.1\r\nHost: x\r\n\r\nGET /c/b HTTP/1.1\r\nHost: x\r\n\r\nGET /c/c HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';
  const reply = await raw(port, pipelined);
  assert.equal(reply.statuses, [200, 200, 200]);
  const order = ['{"n":"a"}', '{"n":"b"}', '{"n":"c"}'].map((body) => reply.text.indexOf(body));
  assert.ok(order[0]! >= 0 && order[0]! < order[1]! && order[1]! < order[2]!, `order ${order}`);
});

Connections('an idle keep-alive connection is closed after keepAliveTimeout', async () => {
  const reply = await raw(port, 'GET /c/1 HTTP/1.1\r\nHost: x\r\n\r\n', { wait: 3000 });
  assert.equal(reply.statuses, [200]);
  assert.ok(reply.closed);
  assert.ok(reply.elapsed >= 400 && reply.elapsed < 2500, `closed after ${reply.elapsed} ms`);
});

Connections.run();
