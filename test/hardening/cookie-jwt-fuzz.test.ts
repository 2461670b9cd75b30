// Seeded fuzz of what cookies and bearer tokens bring: Cookie headers that are huge, repeated,
// malformed, percent-garbled or named after Object.prototype members, and JWT-shaped garbage,
// sent over raw sockets to an app with every cookie consumer on (@Cookie parameters, signed
// cookies, sessions in memory and in a sealed cookie, csrf with the double-submit token, a JWT
// guard, secureHeaders). Every request gets a well-formed answer below 500 (or a 431 for a head
// over the limit), nothing leaks into Object.prototype, and the server keeps serving.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  Controller,
  Cookie,
  CookieSessionStore,
  Get,
  MemorySessionStore,
  Post,
  Req,
  cookieSigner,
  csrf,
  jwtGuard,
  secureHeaders,
  session,
  type KilnRequest,
} from '@kiln/core';
import { raw } from '../support/raw.js';
import { request, start } from '../support/server.js';
import { seededRandom } from './support/seeded-random.js';

const secret = 'a-fuzz-secret-of-at-least-32-characters!!';
const signer = cookieSigner(secret);

@Controller('/c', session({ secrets: [secret], store: new MemorySessionStore({ maxSessions: 200 }) }), csrf({ doubleSubmit: true }))
class CookieController {
  @Get('/read')
  async read(
    @Req() req: KilnRequest,
    @Cookie('n') n?: number,
    @Cookie('theme') theme?: 'light' | 'dark',
    @Cookie('__proto__') proto?: string,
  ) {
    return {
      n: n ?? null,
      theme: theme ?? null,
      proto: proto ?? null,
      signed: (await signer.get(req, 'signed')) ?? null,
      isNew: req.session.isNew,
    };
  }
  @Post('/write') write(@Req() req: KilnRequest) {
    req.session.set('visits', 1 as never);
    return { ok: true };
  }
}

@Controller('/sealed', session({ secrets: [secret], store: new CookieSessionStore() }))
class SealedController {
  @Get('/') read(@Req() req: KilnRequest) {
    return { isNew: req.session.isNew };
  }
}

@Controller('/jwt', jwtGuard({ algorithms: ['HS256'], secret }))
class JwtController {
  @Get('/') read(@Req() req: KilnRequest) {
    return { sub: req.claims.sub ?? null };
  }
}

const prototypeNames = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  'isPrototypeOf',
];
const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789-_.=;,"% \t\\';

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function text(random: () => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

/** One hostile Cookie header value (or several lines of it). */
function cookieAbuse(random: () => number): string[] {
  const kind = Math.floor(random() * 8);
  switch (kind) {
    case 0: // huge: one cookie near the 16 KiB head limit, or past it
      return [`n=${'9'.repeat(pick(random, [4000, 12_000, 20_000]))}`];
    case 1: // duplicated names and lines
      return [`n=1; n=2; theme=dark; theme=light`, `n=3; theme=${pick(random, ['dark', 'blue'])}`];
    case 2: // prototype names, with and without values
      return [prototypeNames.map((name) => `${name}=${pick(random, ['1', '', '{}', 'x'])}`).join('; ')];
    case 3: // malformed separators and quoting
      return [pick(random, ['=;=;=', ';;;;', 'n', '=n', 'n==1', '"n"=1', 'n="1', 'theme="dark"', ' ; n = 4 ; ', 'n=1;;theme', '\t'])];
    case 4: // percent garbage
      return [
        `n=${pick(random, ['%', '%zz', '%E0%A4%A', '%00', '%F0%9F%98%80', '%25%32%35'])}; signed=${pick(random, ['%', 'x.%zz', '.'])}`,
      ];
    case 5: // many cookies
      return [Array.from({ length: 200 + Math.floor(random() * 600) }, (_, i) => `k${i}=${text(random, 3)}`).join('; ')];
    case 6: // forged session, csrf and signed values
      return [`sid=${text(random, 20)}.${text(random, 43)}; csrf=${text(random, 43)}; signed=${text(random, 10)}.${text(random, 43)}`];
    default: // random bytes from the cookie alphabet
      return [text(random, 1 + Math.floor(random() * 300))];
  }
}

function b64(value: string): string {
  return Buffer.from(value).toString('base64url');
}

/** One JWT-shaped garbage token. */
function jwtGarbage(random: () => number): string {
  const headers = [
    '{"alg":"none"}',
    '{"alg":"HS256"',
    '{"alg":"RS256","kid":"x"}',
    '[]',
    'null',
    '{"alg":"HS256","crit":["b64"]}',
    '{"alg":"HS256","b64":false}',
    '{"__proto__":{"alg":"none"}}',
    '{"alg":"HS256","jku":"http://127.0.0.1:1/"}',
  ];
  const payloads = [
    '{}',
    '{"exp":"tomorrow"}',
    '{"exp":1e400}',
    '{"__proto__":{"admin":true},"exp":99999999999}',
    'not json',
    '{"aud":{"$ne":1}}',
    '"string"',
  ];
  const parts = [
    b64(pick(random, headers)),
    b64(pick(random, payloads)),
    text(random, Math.floor(random() * 60)).replace(/[^A-Za-z0-9_-]/g, 'A'),
  ];
  const shape = Math.floor(random() * 5);
  if (shape === 0) return parts.join('.');
  if (shape === 1) return parts.slice(0, 2).join('.');
  if (shape === 2) return `${parts.join('.')}.${parts[0]}`;
  if (shape === 3) return parts.join('.').replace(/[A-Z]/g, (c) => (random() < 0.1 ? '%' : c));
  return `${parts[0]}..${'A'.repeat(Math.floor(random() * 10_000))}`;
}

const Fuzz = suite('hardening: cookie and JWT fuzz');

Fuzz('600 seeded hostile Cookie headers: each answered below 500 (431 past the head limit), the server unharmed', async () => {
  const server = await start({
    controllers: [CookieController, SealedController],
    middlewares: [secureHeaders()],
    onError: (e) => console.error(e),
  });
  const port = Number(new URL(server.base).port);
  const random = seededRandom(3901);
  try {
    for (let i = 0; i < 600; i++) {
      const lines = cookieAbuse(random);
      const path = pick(random, ['/c/read', '/sealed/', '/c/write']);
      const method = path === '/c/write' ? 'POST' : 'GET';
      const head = `${method} ${path} HTTP/1.1\r\nHost: x\r\n${lines.map((line) => `Cookie: ${line}\r\n`).join('')}${method === 'POST' ? 'Content-Length: 0\r\n' : ''}Connection: close\r\n\r\n`;
      const reply = await raw(port, head);
      assert.is(reply.statuses.length, 1, `case ${i}: one answer (${head.slice(0, 120)})`);
      const status = reply.statuses[0]!;
      assert.ok(status < 500, `case ${i}: ${status} for ${head.slice(0, 200)}`);
      if (status !== 431) assert.match(reply.text, /\r\nx-content-type-options: nosniff\r\n/i, `case ${i}: secureHeaders on the answer`);
      if (method === 'POST' && status !== 431) assert.is(status, 403, `case ${i}: no token, no write`);
    }
    assert.is(({} as Record<string, unknown>)['admin'], undefined, 'Object.prototype untouched');
    assert.is(Object.getPrototypeOf({}), Object.prototype);
    const after = await request(server.base, '/c/read', { headers: { cookie: 'n=5; theme=dark' } });
    assert.equal(after.json(), { n: 5, theme: 'dark', proto: null, signed: null, isNew: true });
  } finally {
    await server.close();
  }
});

Fuzz('400 seeded JWT-shaped garbage tokens: each a 401 from the guard, never a 500', async () => {
  const reported: unknown[] = [];
  const server = await start({ controllers: [JwtController], middlewares: [secureHeaders()], onError: (e) => reported.push(e) });
  const port = Number(new URL(server.base).port);
  const random = seededRandom(3902);
  try {
    for (let i = 0; i < 400; i++) {
      const token = jwtGarbage(random);
      const scheme = pick(random, ['Bearer ', 'bearer ', 'Bearer  ', 'BEARER ', 'Bearer\t']);
      const reply = await raw(port, `GET /jwt HTTP/1.1\r\nHost: x\r\nAuthorization: ${scheme}${token}\r\nConnection: close\r\n\r\n`);
      const status = reply.statuses[0];
      assert.ok(status === 401 || status === 431, `case ${i}: ${status} for ${token.slice(0, 120)}`);
    }
    assert.equal(reported, [], 'nothing reported as unexpected');
    assert.is(({} as Record<string, unknown>)['admin'], undefined);
  } finally {
    await server.close();
  }
});

Fuzz.run();
