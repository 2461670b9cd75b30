import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get, Post, compiledBinder, type KilnRequest } from '@kiln/core';
import { start, request, type Started } from '../support/server.js';
import { raw, type RawReply } from '../support/raw.js';

@Controller('/f')
class FuzzController {
  @Get('/:id') @compiledBinder((req: KilnRequest) => [req.params.id, req.query.q, req.cookies.c, req.headers.get('x-a')])
  get(id: string, q: unknown, c: unknown, a: unknown) { return { id, q, c, a }; }
  @Post('/body') @compiledBinder(async (req: KilnRequest) => [await req.parseBody()]) body(body: unknown) { return { body }; }
}

/** Deterministic pseudo-random numbers (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const valid = [
  'GET /f/1?q=a&q=b HTTP/1.1\r\nHost: x\r\nCookie: c=1\r\nX-A: y\r\nConnection: close\r\n\r\n',
  'POST /f/body HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 9\r\nConnection: close\r\n\r\n{"a":[1]}',
  'POST /f/body HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\nabc\r\n0\r\n\r\n',
];

const nasty = ['\r', '\n', '\0', ' ', ':', '%', '%zz', '\u00ff', '"', '{', '\r\n\r\n', 'Content-Length: -1\r\n', 'Transfer-Encoding: chunked\r\n', '__proto__', '/..', '?', '#'];

function malformed(next: () => number): string {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const base = pick(valid);
  const at = Math.floor(next() * base.length);
  switch (Math.floor(next() * 8)) {
    case 0: // one byte replaced
      return base.slice(0, at) + String.fromCharCode(Math.floor(next() * 256)) + base.slice(at + 1);
    case 1: // something nasty inserted
      return base.slice(0, at) + pick(nasty) + base.slice(at);
    case 2: // truncated
      return base.slice(0, at);
    case 3: // a slice repeated
      return base.slice(0, at) + base.slice(Math.floor(at / 2), at) + base.slice(at);
    case 4: // random bytes only
      return Array.from({ length: 1 + Math.floor(next() * 200) }, () => String.fromCharCode(Math.floor(next() * 256))).join('');
    case 5: // a bad method, version or target
      return `${pick(['GET', 'G E T', 'FOO', '', 'get', 'CONNECT'])} ${pick(['/f/1', '*', 'http://x/f/1', '/f/%', '//', ''])} ${pick(['HTTP/1.1', 'HTTP/9.9', 'HTTP/1', 'FTP'])}\r\nHost: x\r\nConnection: close\r\n\r\n`;
    case 6: // conflicting framing
      return `POST /f/body HTTP/1.1\r\nHost: x\r\nContent-Length: ${pick(['3', '-5', 'abc', '3, 4', '99999999999999999999'])}\r\n${pick(['Content-Length: 4\r\n', 'Transfer-Encoding: chunked\r\n', ''])}Connection: close\r\n\r\nabcd`;
    default: // broken chunked encoding
      return `POST /f/body HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${pick(['zz\r\nabc\r\n0\r\n\r\n', '3\r\nabcdef\r\n0\r\n\r\n', 'ffffffffffffffff\r\n', '3\r\nabc'])}`;
  }
}

let server: Started;
let port: number;
const errors: unknown[] = [];
const Fuzz = suite('fuzz');
Fuzz.before(async () => {
  server = await start({ controllers: [FuzzController], headersTimeout: 500, requestTimeout: 800, keepAliveTimeout: 300, onError: (e) => { errors.push(e); } });
  port = Number(new URL(server.base).port);
});
Fuzz.after(() => server.close());

Fuzz('3,000 malformed requests each get a well-formed answer below 500 or a closed connection', async () => {
  const next = random(20261122);
  const total = 3000;
  const replies: { payload: string; reply: RawReply }[] = [];
  let index = 0;
  const worker = async () => {
    while (index < total) {
      index++;
      const payload = malformed(next);
      replies.push({ payload, reply: await raw(port, Buffer.from(payload, 'latin1'), { wait: 3000 }) });
    }
  };
  await Promise.all(Array.from({ length: 50 }, worker));

  const counts: Record<string, number> = {};
  for (const { payload, reply } of replies) {
    const first = reply.text.slice(0, 16);
    const context = `payload ${JSON.stringify(payload.slice(0, 200))} got ${JSON.stringify(reply.text.slice(0, 120))}`;
    assert.ok(reply.text === '' || /^HTTP\/1\.1 \d{3} /.test(first), `a well-formed status line: ${context}`);
    assert.ok(reply.statuses.every((status) => status < 500), `no 5xx: ${context}`);
    assert.ok(reply.statuses.length > 0 || reply.closed, `an answer or a closed connection: ${context}`);
    const key = reply.statuses.length > 0 ? String(reply.statuses[0]) : 'closed';
    counts[key] = (counts[key] ?? 0) + 1;
  }
  console.log('fuzz outcomes', counts);
  assert.equal(errors, [], 'no server-side error was reported');
  const after = await request(server.base, '/f/ok?q=1');
  assert.is(after.status, 200);
});

Fuzz.run();
