// The origin check of WebSocket handshakes, over real connections on 127.0.0.1: browsers apply
// neither CORS nor the same-origin policy to a handshake and send the user's cookies with it, so
// by default only the server's own origin (and clients that send no Origin) may connect.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { rateLimit } from '@kiln/rate-limit';
import {
  Controller,
  Get,
  Injectable,
  Middleware,
  Req,
  WebSocket,
  cors,
  createServer,
  type AllowedOrigins,
  type KilnConfig,
  type KilnRequest,
  type KilnServer,
  type MiddlewareFunction,
  type SocketHandlers,
} from '@kiln/core';
import { connect, refusal, type Refused } from '../support/socket-client.js';

interface Hello {
  text: string;
}

/** Requests that got past the origin check into the application's middlewares. */
let seenByMiddlewares = 0;
const counting: MiddlewareFunction = () => {
  seenByMiddlewares++;
};

@Injectable()
class Greeter {
  greet(who: string): Hello {
    return { text: `hello ${who}` };
  }
}

@Middleware()
class Audit {
  constructor(private readonly greeter: Greeter) {}
  use(@Req() req: KilnRequest): void {
    req.setResponseHeader('x-audit', this.greeter.greet('audit').text);
  }
}

@Controller('/')
class Sockets {
  constructor(private readonly greeter: Greeter) {}

  @WebSocket('/default')
  standard(): SocketHandlers<Hello, Hello> {
    return { open: (socket) => socket.send(this.greeter.greet('default')) };
  }

  @WebSocket('/partners', { allowedOrigins: ['https://partner.example'] }, Audit)
  partners(): SocketHandlers<Hello, Hello> {
    return { open: (socket) => socket.send(this.greeter.greet('partner')) };
  }

  @WebSocket('/own-only', { allowedOrigins: [] })
  ownOnly(): SocketHandlers<Hello, Hello> {
    return { open: (socket) => socket.send({ text: 'own' }) };
  }

  @WebSocket('/ip')
  ip(@Req() req: KilnRequest): SocketHandlers<Hello, Hello> {
    return { open: (socket) => socket.send({ text: req.ip ?? 'none' }) };
  }

  @Get('/plain')
  plain(): Hello {
    return { text: 'plain' };
  }
}

const foreign = 'https://evil.example';

async function serve(config: Partial<KilnConfig> = {}): Promise<{ app: KilnServer; port: number; url: (path: string) => string }> {
  const app = createServer({ controllers: [Sockets], middlewares: [counting], ...config });
  const { port } = await app.listen(0, '127.0.0.1');
  return { app, port, url: (path) => `ws://127.0.0.1:${port}${path}` };
}

/** Connects, reads the first message and closes: the handshake was accepted. */
async function accepted(url: string, headers: Record<string, string> = {}, origin?: string): Promise<unknown> {
  const client = await connect(url, { headers, origin });
  const first = await client.next();
  await client.close();
  return first;
}

function assertRefused(refused: Refused, origin: string): void {
  assert.is(refused.status, 403);
  assert.equal(JSON.parse(refused.body), { error: 'Forbidden', message: `Origin ${origin} is not allowed for this WebSocket route` });
  assert.is(refused.headers['content-type'], 'application/json; charset=utf-8');
}

test('default: the server’s own origin and a handshake without Origin connect; another origin is refused 403 before any middleware', async () => {
  const { app, port, url } = await serve();
  try {
    assert.equal(await accepted(url('/default'), {}, `http://127.0.0.1:${port}`), { text: 'hello default' });
    assert.equal(await accepted(url('/default')), { text: 'hello default' }, 'no Origin: not a browser');
    seenByMiddlewares = 0;
    const refused = await refusal(url('/default'), { origin: foreign });
    assertRefused(refused, foreign);
    assert.equal(
      Object.keys(refused.headers).sort(),
      ['connection', 'content-type'],
      'a plain HTTP answer, no upgrade headers; the end of the body is the end of the connection',
    );
    assert.is(refused.headers.connection, 'close');
    assert.is(seenByMiddlewares, 0, 'no middleware saw the refused handshake');
    // Another port, another scheme or a sibling host is another origin.
    for (const other of [`http://127.0.0.1:${port + 1}`, `https://127.0.0.1:${port}`, `http://localhost:${port}`]) {
      assertRefused(await refusal(url('/default'), { origin: other }), other);
    }
  } finally {
    await app.close();
  }
});

test('the "null" origin (sandboxed frames, file: pages) is refused unless named; "*" and RegExps do not name it', async () => {
  for (const allowedOrigins of [undefined, '*', true, /.*/, ['https://partner.example']] as AllowedOrigins[]) {
    const { app, url } = await serve({ webSocket: { allowedOrigins } });
    try {
      assertRefused(await refusal(url('/default'), { origin: 'null' }), 'null');
    } finally {
      await app.close();
    }
  }
  const { app, url } = await serve({ webSocket: { allowedOrigins: ['null'] } });
  try {
    assert.equal(await accepted(url('/default'), {}, 'null'), { text: 'hello default' });
  } finally {
    await app.close();
  }
});

test('every form of allowedOrigins: an origin, a list, a RegExp, a function (sync and async), "*" and true', async () => {
  const cases: [AllowedOrigins, string[], string[]][] = [
    ['https://app.example', ['https://app.example'], ['https://app.example:8443', 'http://app.example']],
    [
      ['https://app.example', /^https:\/\/[a-z]+\.example\.com$/g],
      ['https://app.example', 'https://eu.example.com', 'https://us.example.com', 'https://us.example.com'],
      ['https://eu.example.com.evil.example', 'https://a.b.example.com'],
    ],
    [/^https:\/\/[a-z]+\.example\.com$/y, ['https://one.example.com', 'https://two.example.com'], ['http://one.example.com']],
    [(origin: string) => origin.endsWith('.trusted.example'), ['https://a.trusted.example'], ['https://trusted.example']],
    [
      async (origin: string, req: KilnRequest) => origin === 'https://b.example' && req.path === '/default',
      ['https://b.example'],
      ['https://c.example'],
    ],
    ['*', ['https://anything.example', 'http://10.0.0.1:8080'], []],
    [true, ['https://anything.example'], []],
  ];
  for (const [allowedOrigins, allowed, refused] of cases) {
    const { app, port, url } = await serve({ webSocket: { allowedOrigins } });
    try {
      for (const origin of [...allowed, `http://127.0.0.1:${port}`]) {
        assert.equal(await accepted(url('/default'), {}, origin), { text: 'hello default' }, `${String(allowedOrigins)} allows ${origin}`);
      }
      for (const origin of refused) assertRefused(await refusal(url('/default'), { origin }), origin);
    } finally {
      await app.close();
    }
  }
});

test("a route's own allowedOrigins replaces the server's; [] is the server's own origin only", async () => {
  const { app, port, url } = await serve({ webSocket: { allowedOrigins: '*' } });
  try {
    assert.equal(await accepted(url('/default'), {}, foreign), { text: 'hello default' }, "the server's '*'");
    assertRefused(await refusal(url('/own-only'), { origin: foreign }), foreign);
    assert.equal(await accepted(url('/own-only'), {}, `http://127.0.0.1:${port}`), { text: 'own' });
    assertRefused(await refusal(url('/partners'), { origin: foreign }), foreign);
    // The route's middlewares (a class middleware with an injected service) run once the origin passed.
    const partner = await connect(url('/partners'), { origin: 'https://partner.example' });
    assert.equal(await partner.next(), { text: 'hello partner' });
    assert.is(partner.upgradeHeaders['x-audit'], 'hello audit');
    await partner.close();
  } finally {
    await app.close();
  }
});

test('a function that answers something other than true or false: the upgrade answers 500 and onError gets KILN098', async () => {
  const reported: unknown[] = [];
  const { app, url } = await serve({
    webSocket: { allowedOrigins: (() => 'https://app.example') as never },
    onError: (error) => void reported.push(error),
    logger: { level: 'silent' },
  });
  try {
    const answer = await refusal(url('/default'), { origin: 'https://app.example' });
    assert.is(answer.status, 500);
    assert.is(reported.length, 1);
    assert.is((reported[0] as { code?: string }).code, 'KILN098');
    assert.is(
      (reported[0] as Error).message,
      'webSocket.allowedOrigins: the function must return (or resolve to) true or false, got string',
    );
  } finally {
    await app.close();
  }
});

test('a plain GET of a WebSocket route from another origin still answers 426: only handshakes are checked', async () => {
  const { app, port } = await serve();
  try {
    const reply = await fetch(`http://127.0.0.1:${port}/default`, { headers: { origin: foreign } });
    assert.is(reply.status, 426);
  } finally {
    await app.close();
  }
});

test('trustProxy: X-Forwarded-Proto and X-Forwarded-Host give the own origin only from a proxy the server trusts', async () => {
  const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'chat.example' };
  // Default trustProxy: the peer (127.0.0.1) is a loopback address, a proxy in front of the app.
  let served = await serve();
  try {
    assert.equal(await accepted(served.url('/default'), forwarded, 'https://chat.example'), { text: 'hello default' });
    // A proxy that says wss and lists the hops: the first entry is the browser's.
    const listed = { 'x-forwarded-proto': 'wss, http', 'x-forwarded-host': 'chat.example, internal:8080' };
    assert.equal(await accepted(served.url('/default'), listed, 'https://chat.example'), { text: 'hello default' });
    assertRefused(await refusal(served.url('/default'), { headers: forwarded, origin: 'http://chat.example' }), 'http://chat.example');
  } finally {
    await served.app.close();
  }
  // Off: the headers are ignored, the own origin is the one the server was reached at.
  for (const trustProxy of [false, ['10.0.0.0/8']]) {
    served = await serve({ trustProxy });
    try {
      assertRefused(await refusal(served.url('/default'), { headers: forwarded, origin: 'https://chat.example' }), 'https://chat.example');
      assert.equal(await accepted(served.url('/default'), forwarded, `http://127.0.0.1:${served.port}`), { text: 'hello default' });
    } finally {
      await served.app.close();
    }
  }
});

test("on Node the handshake's req.ip follows trustProxy with the peer's address (an untrusted peer cannot pick it)", async () => {
  const { app, url } = await serve({ trustProxy: ['10.0.0.0/8'] });
  try {
    assert.equal(await accepted(url('/ip'), { 'x-forwarded-for': '203.0.113.9' }), { text: '127.0.0.1' });
  } finally {
    await app.close();
  }
  const trusting = await serve({ trustProxy: ['loopback'] });
  try {
    assert.equal(await accepted(trusting.url('/ip'), { 'x-forwarded-for': '203.0.113.9' }), { text: '203.0.113.9' });
  } finally {
    await trusting.app.close();
  }
});

test('errors: "problem+json": the refusal is a problem details body', async () => {
  const { app, url } = await serve({ errors: 'problem+json' });
  try {
    const refused = await refusal(url('/default'), { origin: foreign });
    assert.is(refused.status, 403);
    assert.is(refused.headers['content-type'], 'application/problem+json');
    assert.equal(JSON.parse(refused.body), {
      type: 'about:blank',
      title: 'Forbidden',
      status: 403,
      detail: `Origin ${foreign} is not allowed for this WebSocket route`,
      instance: '/default',
    });
  } finally {
    await app.close();
  }
});

test("CORS's origins do not open WebSockets: each option names its own origins", async () => {
  const listed = 'https://app.example';
  const withCors = { middlewares: [cors({ origin: [listed], credentials: true }), counting] };
  let served = await serve(withCors);
  try {
    const plain = await fetch(`http://127.0.0.1:${served.port}/plain`, { headers: { origin: listed } });
    assert.is(plain.headers.get('access-control-allow-origin'), listed, 'CORS grants the HTTP route');
    const refused = await refusal(served.url('/default'), { origin: listed });
    assertRefused(refused, listed);
    assert.is(refused.headers['access-control-allow-origin'], undefined);
  } finally {
    await served.app.close();
  }
  served = await serve({ ...withCors, webSocket: { allowedOrigins: [listed] } });
  try {
    const client = await connect(served.url('/default'), { origin: listed });
    assert.equal(await client.next(), { text: 'hello default' });
    assert.is(client.upgradeHeaders['access-control-allow-origin'], listed, 'the CORS middleware ran on the accepted handshake');
    await client.close();
  } finally {
    await served.app.close();
  }
});

test('with a rate limiter: a refused handshake is not counted, an accepted one is', async () => {
  const { app, port, url } = await serve({ middlewares: [rateLimit({ max: 2, windowMs: 60_000 })] });
  try {
    for (let i = 0; i < 5; i++) assertRefused(await refusal(url('/default'), { origin: foreign }), foreign);
    const first = await connect(url('/default'), { origin: `http://127.0.0.1:${port}` });
    assert.is(first.upgradeHeaders['ratelimit-remaining'], '1', 'the five refused handshakes took nothing of the quota of 2');
    await first.next();
    await first.close();
    await accepted(url('/default'));
    const limited = await refusal(url('/default'));
    assert.is(limited.status, 429);
  } finally {
    await app.close();
  }
});

test('property: any Origin that is not an allowed one is refused 403', async () => {
  const { app, port, url } = await serve({
    webSocket: { allowedOrigins: ['https://app.example', /^https:\/\/[a-z]+\.trusted\.example$/] },
  });
  const own = `http://127.0.0.1:${port}`;
  const allowed = (origin: string) =>
    origin === own || origin === 'https://app.example' || /^https:\/\/[a-z]+\.trusted\.example$/.test(origin);
  // Header-safe text: visible ASCII with inner spaces (a header value is trimmed by HTTP itself).
  const headerText = fc
    .string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), minLength: 1, maxLength: 60 })
    .filter((text) => text.trim() === text);
  const origins = fc.oneof(
    headerText,
    fc.webUrl().map((address) => new URL(address).origin),
    fc.constantFrom(
      'https://app.example.',
      'https://APP.example',
      'https://app.example:443x',
      'https://x.trusted.example.evil',
      own.toUpperCase(),
    ),
  );
  try {
    await fc.assert(
      fc.asyncProperty(origins, async (origin) => {
        fc.pre(!allowed(origin) && origin !== 'null');
        const refused = await refusal(url('/default'), { origin });
        assert.is(refused.status, 403);
        assert.is(
          JSON.parse(refused.body).message,
          `Origin ${origin.length > 100 ? `${origin.slice(0, 100)}…` : origin} is not allowed for this WebSocket route`,
        );
      }),
      { numRuns: 60 },
    );
  } finally {
    await app.close();
  }
});

test('invalid allowedOrigins are refused at start-up with KILN097', () => {
  const server: [unknown, string][] = [
    [
      42,
      "webSocket.allowedOrigins must be an origin ('https://app.example.com'), a RegExp, a list of them, a function (origin, req) => boolean, or '*' for any origin; got number",
    ],
    [false, 'got boolean'],
    [['https://app.example', 7], 'got a list holding something other than strings and RegExps'],
    [
      'https://app.example/',
      'webSocket.allowedOrigins: "https://app.example/" is not an origin (scheme, host and port, no path or trailing slash): write "https://app.example"',
    ],
    ['HTTPS://App.Example:443', 'write "https://app.example"'],
    ['app.example', 'webSocket.allowedOrigins: "app.example" is not an origin'],
    [['ftp://files.example'], '"ftp://files.example" is not an origin'],
  ];
  for (const [allowedOrigins, message] of server) {
    try {
      createServer({ controllers: [Sockets], webSocket: { allowedOrigins: allowedOrigins as never } });
      assert.unreachable(`accepted ${String(allowedOrigins)}`);
    } catch (error) {
      assert.is((error as { code?: string }).code, 'KILN097', String(allowedOrigins));
      assert.ok((error as Error).message.includes(message), (error as Error).message);
    }
  }
  const route: [() => unknown, string][] = [
    [
      () => WebSocket('/chat', { allowedOrigins: 'https://app.example/chat' }),
      `allowedOrigins of @WebSocket('/chat'): "https://app.example/chat" is not an origin`,
    ],
    [
      () => WebSocket('/chat', { allowedOrigin: ['https://app.example'] } as never),
      "@WebSocket('/chat'): allowedOrigin is not a WebSocket route option; the option is allowedOrigins",
    ],
    [
      () => WebSocket('/chat', 'https://app.example' as never),
      "@WebSocket('/chat'): route options must be an object ({ allowedOrigins }), got string",
    ],
  ];
  for (const [declare, message] of route) {
    try {
      declare();
      assert.unreachable('accepted');
    } catch (error) {
      assert.is((error as { code?: string }).code, 'KILN097');
      assert.ok((error as Error).message.startsWith(message), (error as Error).message);
    }
  }
});

test.run();
