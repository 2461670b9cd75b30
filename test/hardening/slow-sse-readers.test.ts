// Slow and stopped readers of server-sent events, several at once on one server: a client that
// never reads and one that stops after the first bytes are cut after sendTimeout with their
// generators closed and a bounded number of events produced; a client that reads a little now and
// then holds a bounded number of events too; the server answers everyone else meanwhile, and every
// generator is closed once the clients are gone.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import net from 'node:net';
import { Controller, Get, Req, Sse, type KilnRequest } from '@kiln/core';
import { start, type Started } from '../support/server.js';

const eventSize = 16 * 1024;
/** Bytes a stream may produce beyond what its client read: the sockets' buffers, never more. */
const bound = 16 * 1024 * 1024;
let open = 0;
let produced = new Map<string, number>();
const closedClients = new Map<string, boolean>();
const reported: unknown[] = [];

@Controller('/')
class FloodController {
  @Get('/flood')
  @Sse({ heartbeat: 0 })
  async *flood(@Req() req: KilnRequest): AsyncGenerator<string> {
    const client = req.headers.get('x-client') ?? 'unnamed';
    const block = 'x'.repeat(eventSize);
    open++;
    try {
      for (;;) {
        produced.set(client, (produced.get(client) ?? 0) + 1);
        yield block;
      }
    } finally {
      open--;
      closedClients.set(client, req.signal.aborted);
    }
  }

  @Get('/ping')
  ping() {
    return { pong: true };
  }
}

/** Resolves once `condition` holds, polling; fails instead of hanging (a generous bound, not a timing assertion). */
async function eventually(condition: () => boolean, what: string, milliseconds = 15_000): Promise<void> {
  const deadline = Date.now() + milliseconds;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${milliseconds} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

type Reader = 'silent' | 'stops-after-first-bytes' | 'trickle';

/** A raw connection asking for the flood as `client`, read as `reader` says. */
async function follow(port: number, client: string, reader: Reader): Promise<{ socket: net.Socket; read: () => number }> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let read = 0;
  socket.on('error', () => {});
  socket.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (reader === 'stops-after-first-bytes') socket.pause();
  });
  if (reader !== 'stops-after-first-bytes') socket.pause();
  if (reader === 'trickle') {
    // A moment of reading every 100 ms: the client takes some of what is sent, slowly.
    const timer = setInterval(() => {
      socket.resume();
      setImmediate(() => socket.pause());
    }, 100);
    socket.once('close', () => clearInterval(timer));
  }
  socket.write(`GET /flood HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: identity\r\nX-Client: ${client}\r\n\r\n`);
  return { socket, read: () => read };
}

let server: Started;
test.before(async () => {
  server = await start({
    controllers: [FloodController],
    sendTimeout: 300,
    onError: (error) => {
      reported.push(error);
    },
  });
});
test.after(() => server.close());

test('stopped readers are cut after sendTimeout with their generators closed, slow ones hold a bounded number of events, and others are served meanwhile', async () => {
  produced = new Map();
  const port = Number(new URL(server.base).port);
  const readers: Reader[] = [
    'silent',
    'stops-after-first-bytes',
    'trickle',
    'silent',
    'stops-after-first-bytes',
    'trickle',
    'silent',
    'silent',
  ];
  const clients = await Promise.all(readers.map((reader, i) => follow(port, `${reader}-${i}`, reader)));
  await eventually(() => open === readers.length || closedClients.size > 0, 'every stream started');

  // Everyone else is served while the streams are stuck.
  for (let i = 0; i < 5; i++) {
    const reply = await fetch(`${server.base}/ping`);
    assert.is(reply.status, 200);
    assert.equal(await reply.json(), { pong: true });
  }

  // The clients that stopped reading are cut by the server, their generators closed with req.signal aborted.
  const stopped = readers
    .map((reader, i) => ({ reader, client: clients[i]!, name: `${reader}-${i}` }))
    .filter(({ reader }) => reader !== 'trickle');
  // (Seen from the server: a paused client does not read the end of its stream.)
  await eventually(() => stopped.every(({ name }) => closedClients.has(name)), 'the stopped clients are cut, their generators closed');
  for (const { name } of stopped) {
    assert.is(closedClients.get(name), true, `${name}: req.signal aborted`);
    // What the two sockets' buffers hold, and no more (loopback buffers grow to a few MiB).
    assert.ok(produced.get(name)! * eventSize < bound, `${name}: ${produced.get(name)} events produced for a client that stopped reading`);
  }

  // A slow reader is sent only what it takes: what was produced and not yet read stays under the same bound.
  for (const [i, reader] of readers.entries()) {
    if (reader !== 'trickle') continue;
    const client = clients[i]!;
    const unread = produced.get(`${reader}-${i}`)! * eventSize - client.read();
    assert.ok(unread < bound, `${reader}-${i}: ${unread} bytes produced and not read`);
  }
  for (const client of clients) client.socket.destroy();
  await eventually(() => open === 0, 'every generator closed once the clients are gone');
  assert.equal(reported, []);
});

test.run();
