import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get, compiledBinder, type KilnRequest } from '@kiln/core';
import { start, type Started } from '../support/server.js';
import { lastJsonBody, raw } from '../support/raw.js';

@Controller('/c')
class ConnectionsController {
  @Get('/:n') @compiledBinder((req: KilnRequest) => [req.params.n]) echo(n: string) {
    return { n };
  }
}

let server: Started;
let port: number;
const Connections = suite('connections');
Connections.before(async () => {
  server = await start({ controllers: [ConnectionsController], headersTimeout: 300, requestTimeout: 1000, keepAliveTimeout: 500 });
  port = Number(new URL(server.base).port);
});
Connections.after(() => server.close());

Connections('a slowloris client that never finishes its headers is answered 408 and cut off after headersTimeout', async () => {
  // A header line every 50 ms for 150 ms, then silence: the headers never end. The client is not
  // writing when the 408 comes (headersTimeout is 300 ms), so nothing can reset the answer away.
  const pieces = ['GET /c/1 HTTP/1.1\r\n', 'Host: x\r\n', 'X-Slow-1: y\r\n', 'X-Slow-2: y\r\n'];
  const reply = await raw(port, '', { pieces, pause: 50, wait: 5000 });
  assert.ok(reply.closed, 'the server closed the connection');
  assert.equal(reply.statuses, [408]);
  assert.equal(lastJsonBody(reply), { error: 'Request Timeout', message: 'The request was not received in time' });
});

Connections('keep-alive serves several requests on one connection', async () => {
  const reply = await raw(port, '', {
    pieces: [
      'GET /c/1 HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /c/2 HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /c/3 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    ],
    pause: 30,
  });
  assert.equal(reply.statuses, [200, 200, 200]);
  assert.ok(reply.text.indexOf('{"n":"1"}') < reply.text.indexOf('{"n":"2"}'));
  assert.ok(reply.text.indexOf('{"n":"2"}') < reply.text.indexOf('{"n":"3"}'));
  assert.ok(reply.closed);
});

Connections('pipelined requests are answered in order', async () => {
  const pipelined =
    'GET /c/a HTTP/1.1\r\nHost: x\r\n\r\nGET /c/b HTTP/1.1\r\nHost: x\r\n\r\nGET /c/c HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';
  const reply = await raw(port, pipelined);
  assert.equal(reply.statuses, [200, 200, 200]);
  const order = ['{"n":"a"}', '{"n":"b"}', '{"n":"c"}'].map((body) => reply.text.indexOf(body));
  assert.ok(order[0]! >= 0 && order[0]! < order[1]! && order[1]! < order[2]!, `order ${order}`);
});

Connections('an idle keep-alive connection stays open for the next request, then is closed after keepAliveTimeout', async () => {
  // keepAliveTimeout is 500 ms: the second request, 100 ms after the first answer, reuses the
  // connection; then the server closes it by itself, well within the 5 s the client waits.
  const request = 'GET /c/1 HTTP/1.1\r\nHost: x\r\n\r\n';
  const reply = await raw(port, '', { pieces: [request, request], pause: 100, wait: 5000 });
  assert.equal(reply.statuses, [200, 200]);
  assert.ok(reply.closed, 'closed by the server, not by the client giving up');
});

Connections.run();
