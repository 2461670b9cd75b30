// WebSocket routes over real connections on 127.0.0.1, with the `ws` package as the client:
// typed messages (validated in, projected out), the upgrade through middlewares and guards, the
// limits, keep-alive, rooms, and close on shutdown.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { raw } from '../support/raw.js';
import { connect, refusal, type SocketClient } from '../support/socket-client.js';
import {
  Controller,
  HttpError,
  Param,
  Query,
  Header,
  WebSocket,
  createServer,
  type KilnServer,
  type MiddlewareFunction,
  type SocketHandlers,
} from '@kiln/core';

interface ChatIn {
  text: string;
}
interface ChatOut {
  from: string;
  text: string;
}

const logLines: Record<string, unknown>[] = [];
const closes: { code: number; reason: string }[] = [];

const signedIn: MiddlewareFunction = (req) => {
  const token = req.headers.get('authorization');
  if (token === null) throw new HttpError(401, 'Sign in to chat');
  if (token !== 'Bearer member') throw new HttpError(403, 'Members only');
};
const requestId: MiddlewareFunction = (req) => {
  req.setResponseHeader('x-request-id', 'r-1');
};

@Controller('/ws')
class ChatController {
  @WebSocket('/echo/:name')
  echo(@Param('name') name: string, @Query('shout') shout: boolean): SocketHandlers<ChatIn, ChatOut> {
    return {
      message: (socket, message) => {
        // A property the declared type does not name never leaves.
        const reply = { from: name, text: shout ? message.text.toUpperCase() : message.text, password: 'hunter2' };
        socket.send(reply);
      },
      close: (_socket, code, reason) => {
        closes.push({ code, reason });
      },
    };
  }

  @WebSocket('/members', signedIn)
  members(@Header('authorization') authorization: string): SocketHandlers<ChatIn, ChatOut> {
    return { open: (socket) => socket.send({ from: 'server', text: `welcome ${authorization.slice(7)}` }) };
  }

  @WebSocket('/rooms/:room')
  room(@Param('room') room: string, @Query('user') user: string): SocketHandlers<ChatIn, ChatOut> {
    return {
      open: (socket) => {
        socket.subscribe(room);
        socket.send({ from: 'server', text: `joined ${room}` });
      },
      message: (socket, message) => socket.publish(room, { from: user, text: message.text }),
    };
  }

  @WebSocket('/failing')
  failing(): SocketHandlers<ChatIn, ChatOut> {
    return {
      message: () => {
        throw new Error('the handler broke');
      },
    };
  }

  @WebSocket('/untyped')
  async untyped() {
    return { message: (socket: { send(value: unknown): boolean }, message: unknown) => socket.send({ got: message }) };
  }
}

let app: KilnServer;
let base: string;
let port: number;
test.before(async () => {
  app = createServer({
    controllers: [ChatController],
    middlewares: [requestId],
    webSocket: { maxMessageSize: 1024, messagesPerSecond: 20 },
    logger: { destination: { write: (line: string) => void logLines.push(JSON.parse(line)) } },
  });
  ({ port } = await app.listen(0, '127.0.0.1'));
  base = `ws://127.0.0.1:${port}`;
});
test.after(() => app.close());

async function echo(): Promise<SocketClient> {
  return connect(`${base}/ws/echo/ada`);
}

test('echo: a typed message in, the reply projected to the declared type out (undeclared properties stripped)', async () => {
  const client = await echo();
  client.send({ text: 'hello' });
  assert.equal(await client.next(), { from: 'ada', text: 'hello' });
  client.send({ text: 'ünïcödé ✓' });
  assert.equal(await client.next(), { from: 'ada', text: 'ünïcödé ✓' });
  await client.close();
});

test('the upgrade binds @Param and @Query like any route', async () => {
  const client = await connect(`${base}/ws/echo/grace?shout=true`);
  client.send({ text: 'quiet' });
  assert.equal(await client.next(), { from: 'grace', text: 'QUIET' });
  await client.close();
});

test("the chain's response headers are sent on the 101", async () => {
  const client = await echo();
  assert.is(client.upgradeHeaders['x-request-id'], 'r-1');
  await client.close();
});

test('a message that is not JSON closes with 1007', async () => {
  const client = await echo();
  client.send('{"text": ');
  assert.equal(await client.closed, { code: 1007, reason: 'The message is not valid JSON' });
});

test('a message of the wrong shape closes with 1007 naming the failing path', async () => {
  const client = await echo();
  client.send({ text: 42 });
  assert.equal(await client.closed, { code: 1007, reason: '$input.text: expected string' });
});

test('a message with a property its type does not declare closes with 1007', async () => {
  const client = await echo();
  client.send({ text: 'hi', admin: true });
  const closed = await client.closed;
  assert.is(closed.code, 1007);
  assert.match(closed.reason, '$input.admin');
});

test('a binary message closes with 1003', async () => {
  const client = await echo();
  client.ws.send(Buffer.from([1, 2, 3]));
  assert.equal(await client.closed, { code: 1003, reason: 'Binary messages are not accepted: send JSON text' });
});

test('a message larger than maxMessageSize closes with 1009', async () => {
  const client = await echo();
  client.send({ text: 'x'.repeat(2000) });
  assert.is((await client.closed).code, 1009);
});

test('more messages per second than messagesPerSecond closes with 1008', async () => {
  const client = await echo();
  for (let i = 0; i < 40; i++) client.send({ text: `${i}` });
  const closed = await client.closed;
  assert.equal(closed, { code: 1008, reason: 'More than 20 messages in a second' });
  // The first 20 were answered before the limit was passed.
  assert.equal(
    client.messages.slice(0, 20),
    Array.from({ length: 20 }, (_, i) => ({ from: 'ada', text: `${i}` })),
  );
});

test('the close handler is told the code and reason the client closed with', async () => {
  const client = await echo();
  client.ws.close(4001, 'bye');
  await client.closed;
  for (let i = 0; i < 50 && !closes.some((c) => c.code === 4001); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(closes.some((c) => c.code === 4001 && c.reason === 'bye'));
});

test('a guard refuses the upgrade with an ordinary 401, then 403; a member connects', async () => {
  const anonymous = await refusal(`${base}/ws/members`);
  assert.is(anonymous.status, 401);
  assert.equal(JSON.parse(anonymous.body), { error: 'Unauthorized', message: 'Sign in to chat' });
  assert.is(anonymous.headers['content-type'], 'application/json; charset=utf-8');
  const stranger = await refusal(`${base}/ws/members`, { headers: { authorization: 'Bearer stranger' } });
  assert.is(stranger.status, 403);
  assert.equal(JSON.parse(stranger.body), { error: 'Forbidden', message: 'Members only' });
  const member = await connect(`${base}/ws/members`, { headers: { authorization: 'Bearer member' } });
  assert.equal(await member.next(), { from: 'server', text: 'welcome member' });
  await member.close();
});

test('an upgrade to a path with no route answers 404', async () => {
  const missing = await refusal(`${base}/ws/nowhere`);
  assert.is(missing.status, 404);
  assert.is(JSON.parse(missing.body).message, 'No route for GET /ws/nowhere');
});

test('a plain GET of a WebSocket route answers 426 naming the protocol', async () => {
  const response = await fetch(`http://127.0.0.1:${port}/ws/echo/ada`);
  assert.is(response.status, 426);
  assert.equal(await response.json(), {
    error: 'Upgrade Required',
    message: '/ws/echo/ada is a WebSocket route: connect with Upgrade: websocket',
  });
  const inProcess = await app.fetch(new Request('http://localhost/ws/echo/ada'));
  assert.is(inProcess.status, 426);
});

test('a handler that throws is reported and closes the connection with 1011', async () => {
  const client = await connect(`${base}/ws/failing`);
  client.send({ text: 'boom' });
  assert.equal(await client.closed, { code: 1011, reason: 'The server failed to handle the connection' });
  const line = logLines.find((entry) => entry['msg'] === 'a WebSocket handler failed');
  assert.ok(line);
  assert.is(line!['route'], 'ChatController.failing');
});

test('a route whose handlers declare no types passes messages as parsed and sends values as they are', async () => {
  const client = await connect(`${base}/ws/untyped`);
  client.send({ anything: [1, 'two'] });
  assert.equal(await client.next(), { got: { anything: [1, 'two'] } });
  await client.close();
});

test('rooms: a published message reaches every socket of the room, the sender included, and no other room', async () => {
  const ada = await connect(`${base}/ws/rooms/lobby?user=ada`);
  const grace = await connect(`${base}/ws/rooms/lobby?user=grace`);
  const alan = await connect(`${base}/ws/rooms/attic?user=alan`);
  for (const client of [ada, grace]) assert.equal(await client.next(), { from: 'server', text: 'joined lobby' });
  assert.equal(await alan.next(), { from: 'server', text: 'joined attic' });
  ada.send({ text: 'hi all' });
  assert.equal(await grace.next(), { from: 'ada', text: 'hi all' });
  assert.equal(await ada.next(), { from: 'ada', text: 'hi all' });
  // app.publish reaches every socket of the room, each projected to its route's type.
  await app.publish('lobby', { from: 'ops', text: 'restart at noon', internal: 'not for clients' });
  assert.equal(await ada.next(), { from: 'ops', text: 'restart at noon' });
  assert.equal(await grace.next(), { from: 'ops', text: 'restart at noon' });
  await app.publish('attic', { from: 'ops', text: 'attic only' });
  assert.equal(await alan.next(), { from: 'ops', text: 'attic only' });
  // Nothing of the lobby reached the attic, nor the reverse.
  assert.equal([ada.messages, grace.messages, alan.messages], [[], [], []]);
  await Promise.all([ada.close(), grace.close(), alan.close()]);
});

test('200 concurrent connections each get their own echo', async () => {
  const clients = await Promise.all(Array.from({ length: 200 }, (_, i) => connect(`${base}/ws/echo/c${i}`)));
  clients.forEach((client, i) => client.send({ text: `n${i}` }));
  const replies = await Promise.all(clients.map((client) => client.next()));
  assert.equal(
    replies,
    clients.map((_, i) => ({ from: `c${i}`, text: `n${i}` })),
  );
  await Promise.all(clients.map((client) => client.close()));
});

test('malformed handshakes are refused before any middleware, with the JSON error body', async () => {
  const head = (lines: string[]) => `GET /ws/echo/ada HTTP/1.1\r\nHost: 127.0.0.1\r\n${lines.join('\r\n')}\r\n\r\n`;
  const badKey = await raw(
    port,
    head(['Upgrade: websocket', 'Connection: Upgrade', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: short']),
  );
  assert.equal(badKey.statuses, [400]);
  assert.match(badKey.text, '{"error":"Bad Request","message":"Sec-WebSocket-Key must be 16 bytes in base64"}');
  assert.ok(badKey.closed);
  const badVersion = await raw(
    port,
    head(['Upgrade: websocket', 'Connection: Upgrade', 'Sec-WebSocket-Version: 8', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==']),
  );
  assert.equal(badVersion.statuses, [426]);
  assert.match(badVersion.text, /sec-websocket-version: 13/i);
  const noConnection = await raw(
    port,
    head(['Upgrade: websocket', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==']),
  );
  // Node hands a request to its upgrade listener only with Connection: Upgrade: without it, the GET is an ordinary request.
  assert.equal(noConnection.statuses, [426]);
});

test('a request for another protocol (h2c) is still refused with 400', async () => {
  const reply = await raw(
    port,
    'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n\r\n',
  );
  assert.equal(reply.statuses, [400]);
  assert.ok(reply.closed);
});

test('socket.close refuses a code an application may not send (KILN095)', async () => {
  let thrown: unknown;
  @Controller('/c')
  class Closer {
    @WebSocket('/')
    closer(): SocketHandlers<unknown, unknown> {
      return {
        open: (socket) => {
          try {
            socket.close(1006);
          } catch (error) {
            thrown = error;
            socket.close(4000, 'done');
          }
        },
      };
    }
  }
  const server = createServer({ controllers: [Closer] });
  const { port: closerPort } = await server.listen(0, '127.0.0.1');
  const client = await connect(`ws://127.0.0.1:${closerPort}/c`);
  assert.equal(await client.closed, { code: 4000, reason: 'done' });
  assert.is((thrown as { code?: string }).code, 'KILN095');
  await server.close();
});

test.run();
