// Hostile WebSocket clients over raw sockets: malformed handshakes (a seeded fuzz of keys,
// versions and missing headers) are answered with an error and a closed connection, never a hang
// or a crash; after a valid handshake, frames that break RFC 6455 (unmasked, a stray continuation,
// a fragmented control frame, a reserved opcode, a message fragmented past maxMessageSize) close
// the connection with 1002 or 1009. The server serves normally after all of it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import net from 'node:net';
import { Controller, WebSocket, createServer, type KilnServer, type SocketHandlers } from '@kiln/core';
import { raw } from '../support/raw.js';
import { connect } from '../support/socket-client.js';
import { seededRandom } from './support/seeded-random.js';

@Controller('/')
class EchoController {
  @WebSocket('/echo')
  echo(): SocketHandlers<{ text: string }, { text: string }> {
    return { message: (socket, message) => socket.send({ text: message.text }) };
  }
}

let app: KilnServer;
let port: number;
test.before(async () => {
  app = createServer({ controllers: [EchoController], webSocket: { maxMessageSize: 1024 } });
  ({ port } = await app.listen(0, '127.0.0.1'));
});
test.after(() => app.close());

const validKey = 'dGhlIHNhbXBsZSBub25jZQ==';

async function stillServes(): Promise<void> {
  const client = await connect(`ws://127.0.0.1:${port}/echo`);
  client.send({ text: 'alive' });
  assert.equal(await client.next(), { text: 'alive' });
  await client.close();
}

test('fuzz: 150 malformed handshakes each get an error status and a closed connection', async () => {
  const random = seededRandom(6455);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const keys = [
    '',
    'short',
    `${validKey}x`,
    'dGhlIHNhbXBsZSBub25jZQ',
    '!!!!!!!!!!!!!!!!!!!!!!==',
    'AAAAAAAAAAAAAAAAAAAAAB==',
    'dGhl IHNhbXBsZSBub25jZQ==',
  ];
  const versions = ['', '8', '12', '14', '13, 8', 'thirteen', '-1', '1'.repeat(40)];
  for (let i = 0; i < 150; i++) {
    const lines = [
      `${pick(['GET', 'GET', 'POST', 'PUT'])} /echo HTTP/1.1`,
      'Host: 127.0.0.1',
      `Upgrade: ${pick(['websocket', 'WebSocket', 'websocket, h2c'])}`,
    ];
    lines.push(`Connection: ${pick(['Upgrade', 'keep-alive, Upgrade', 'upgrade'])}`);
    // Each request breaks at least one rule: a bad key, a bad version, or a missing header.
    const fault = i % 3;
    if (fault !== 2 || random() < 0.5) lines.push(`Sec-WebSocket-Version: ${fault === 1 ? pick(versions) : '13'}`);
    if (fault !== 2 || random() < 0.5) lines.push(`Sec-WebSocket-Key: ${fault === 0 ? pick(keys) : validKey}`);
    if (
      fault === 2 &&
      lines.some((line) => line.startsWith('Sec-WebSocket-Version')) &&
      lines.some((line) => line.startsWith('Sec-WebSocket-Key'))
    ) {
      lines.pop();
    }
    const reply = await raw(port, `${lines.join('\r\n')}\r\n\r\n`, { wait: 3000 });
    assert.ok(reply.closed, `request ${i} left the connection open:\n${lines.join('\n')}`);
    assert.equal(reply.statuses.length, 1, `request ${i}: ${reply.text}`);
    assert.ok([400, 426].includes(reply.statuses[0]!), `request ${i} answered ${reply.statuses[0]}:\n${lines.join('\n')}`);
    assert.not.match(reply.text, '101 Switching Protocols');
  }
  await stillServes();
});

/** A raw WebSocket client: the handshake done, then frames written as they are given. */
async function handshaken(): Promise<{ socket: net.Socket; received: () => Buffer; ended: Promise<void> }> {
  const socket = net.connect(port, '127.0.0.1');
  let data = Buffer.alloc(0);
  socket.on('data', (chunk) => {
    data = Buffer.concat([data, chunk]);
  });
  socket.on('error', () => {});
  const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write(
    `GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${validKey}\r\n\r\n`,
  );
  while (!data.includes('\r\n\r\n')) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.match(data.toString('latin1'), 'HTTP/1.1 101 Switching Protocols');
  data = data.subarray(data.indexOf('\r\n\r\n') + 4);
  return { socket, received: () => data, ended };
}

/** One frame: FIN bit, opcode, payload; masked unless said otherwise. */
function frame(fin: boolean, opcode: number, payload: Buffer, masked = true): Buffer {
  const head: number[] = [(fin ? 0x80 : 0) | opcode];
  const length = payload.length;
  if (length < 126) head.push((masked ? 0x80 : 0) | length);
  else head.push((masked ? 0x80 : 0) | 126, length >> 8, length & 0xff);
  if (!masked) return Buffer.concat([Buffer.from(head), payload]);
  const mask = Buffer.from([0x12, 0x34, 0x56, 0x78]);
  const body = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]!));
  return Buffer.concat([Buffer.from(head), mask, body]);
}

/** The close code of the server's close frame among what it sent. */
function closeCode(received: Buffer): number | undefined {
  for (let at = 0; at + 2 <= received.length; ) {
    const opcode = received[at]! & 0x0f;
    let length = received[at + 1]! & 0x7f;
    let start = at + 2;
    if (length === 126) {
      length = received.readUInt16BE(at + 2);
      start += 2;
    }
    if (opcode === 0x8) return received.readUInt16BE(start);
    at = start + length;
  }
  return undefined;
}

const abuses: [string, Buffer[], number][] = [
  ['an unmasked frame', [frame(true, 0x1, Buffer.from('{"text":"x"}'), false)], 1002],
  ['a continuation frame with no message begun', [frame(true, 0x0, Buffer.from('{}'))], 1002],
  ['a fragmented ping', [frame(false, 0x9, Buffer.from('ping'))], 1002],
  ['a reserved opcode', [frame(true, 0x3, Buffer.from('?'))], 1002],
  ['a new message before the fragmented one ended', [frame(false, 0x1, Buffer.from('{"te')), frame(true, 0x1, Buffer.from('{}'))], 1002],
  [
    'a message fragmented past maxMessageSize',
    Array.from({ length: 6 }, (_, i) => frame(i === 5, i === 0 ? 0x1 : 0x0, Buffer.alloc(300, 0x61))),
    1009,
  ],
  ['a text message that is not UTF-8', [frame(true, 0x1, Buffer.from([0x22, 0xff, 0xfe, 0x22]))], 1007],
];

for (const [what, frames, code] of abuses) {
  test(`${what} closes the connection with ${code}`, async () => {
    const { socket, received, ended } = await handshaken();
    for (const piece of frames) socket.write(piece);
    await ended;
    assert.is(closeCode(received()), code);
  });
}

test('after the abuse, the server still serves', async () => {
  await stillServes();
  const plain = await fetch(`http://127.0.0.1:${port}/echo`);
  assert.is(plain.status, 426);
});

test.run();
