// WebSocket connections over time: keep-alive and dead peers, the connection limit, and what
// app.close() does to open connections.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connect, refusal } from '../support/socket-client.js';
import { Controller, WebSocket, createServer, type SocketHandlers } from '@kiln/core';

const serverSaw: { code: number; reason: string }[] = [];

@Controller('/')
class Lobby {
  @WebSocket('/lobby')
  lobby(): SocketHandlers<{ text: string }, { text: string }> {
    return {
      open: (socket) => socket.send({ text: 'hello' }),
      close: (_socket, code, reason) => void serverSaw.push({ code, reason }),
    };
  }
}

test('app.close() closes every connection with 1001, then resolves', async () => {
  const app = createServer({ controllers: [Lobby] });
  const { port } = await app.listen(0, '127.0.0.1');
  const clients = await Promise.all([1, 2, 3].map(() => connect(`ws://127.0.0.1:${port}/lobby`)));
  await Promise.all(clients.map((client) => client.next()));
  const closing = app.close();
  const closed = await Promise.all(clients.map((client) => client.closed));
  assert.equal(
    closed,
    clients.map(() => ({ code: 1001, reason: 'The server is shutting down' })),
  );
  await closing;
  // The close handlers ran, each told the code the client answered with.
  assert.equal(
    serverSaw.splice(0).map((entry) => entry.code),
    [1001, 1001, 1001],
  );
});

test('a peer that answers no ping is cut; a peer that answers stays', async () => {
  const app = createServer({ controllers: [Lobby], webSocket: { pingInterval: 100 } });
  const { port } = await app.listen(0, '127.0.0.1');
  const silent = await connect(`ws://127.0.0.1:${port}/lobby`, { autoPong: false });
  const lively = await connect(`ws://127.0.0.1:${port}/lobby`);
  let pings = 0;
  lively.ws.on('ping', () => pings++);
  // Cut without a closing handshake: the client sees 1006, the server's close handler too.
  assert.is((await silent.closed).code, 1006);
  assert.ok(pings >= 1, 'the lively peer was pinged too');
  assert.is(lively.ws.readyState, lively.ws.OPEN);
  // The server's side of the cut is seen once its socket's close event ran.
  for (let i = 0; i < 100 && serverSaw.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(serverSaw.splice(0), [{ code: 1006, reason: '' }]);
  await lively.close();
  await app.close();
  serverSaw.length = 0;
});

test('past maxConnections an upgrade answers 503; a closed connection frees its place', async () => {
  const app = createServer({ controllers: [Lobby], webSocket: { maxConnections: 2 } });
  const { port } = await app.listen(0, '127.0.0.1');
  const url = `ws://127.0.0.1:${port}/lobby`;
  const first = await connect(url);
  const second = await connect(url);
  const third = await refusal(url);
  assert.is(third.status, 503);
  assert.equal(JSON.parse(third.body), { error: 'Service Unavailable', message: 'This server holds 2 WebSocket connections already' });
  await first.close();
  // The server counts the connection closed once its own close event ran.
  for (let i = 0; i < 100 && serverSaw.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  const again = await connect(url);
  assert.equal(await again.next(), { text: 'hello' });
  await Promise.all([second.close(), again.close()]);
  await app.close();
  serverSaw.length = 0;
});

test('invalid webSocket options are refused at start-up with KILN094', () => {
  for (const [webSocket, message] of [
    [{ maxMessageSize: 0 }, 'webSocket.maxMessageSize must be a whole number of at least 1, got 0'],
    [{ pingInterval: -1 }, 'webSocket.pingInterval must be a whole number of at least 0, got -1'],
    [{ maxConections: 5 }, 'webSocket.maxConections is not a WebSocket option'],
  ] as const) {
    try {
      createServer({ controllers: [Lobby], webSocket: webSocket as never });
      assert.unreachable('accepted');
    } catch (error) {
      assert.is((error as { code?: string }).code, 'KILN094');
      assert.match((error as Error).message, message);
    }
  }
});

test.run();
