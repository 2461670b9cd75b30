import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Delete, Get, Post, compiledBinder, type KilnRequest } from '@kiln/core';
import { overBothTransports, start, request } from '../support/server.js';

function describeRequest(req: KilnRequest) {
  return {
    url: req.url,
    method: req.method,
    params: { ...req.params },
    query: { ...req.query },
    cookies: { ...req.cookies },
    path: req.path,
    hostname: req.hostname,
    protocol: req.protocol,
    isRequest: req instanceof Request,
    headersAreNative: req.headers instanceof Headers,
    userAgent: req.headers.get('X-Custom'),
    flat: req.flatHeaders['x-custom'],
    flatProto: Object.getPrototypeOf(req.flatHeaders),
    queryProto: Object.getPrototypeOf(req.query),
  };
}

// What an application does to give its middlewares' own properties a type.
declare module '@kiln/core' {
  interface KilnRequest {
    user?: { id: string };
  }
}

@Controller('/req')
class RequestController {
  @Get('/:id/info')
  @compiledBinder((req: KilnRequest) => [req])
  info(req: KilnRequest) {
    return describeRequest(req);
  }

  @Get('/ip')
  @compiledBinder((req: KilnRequest) => [req])
  ip(req: KilnRequest) {
    return { ip: req.ip ?? null, remote: req.remoteAddress ?? null };
  }

  @Get('/iterate')
  @compiledBinder((req: KilnRequest) => [req])
  iterate(req: KilnRequest) {
    const names: string[] = [];
    req.headers.forEach((_value, name) => names.push(name));
    return { hasCustom: names.includes('x-custom'), viaEntries: [...req.headers].some(([name]) => name === 'x-custom') };
  }

  @Get('/query')
  @compiledBinder((req: KilnRequest) => [req])
  query(req: KilnRequest) {
    return { ...req.query };
  }

  // A DELETE without a body (no Content-Length, no Transfer-Encoding): its body reads as empty.
  @Delete('/empty-text')
  @compiledBinder(async (req: KilnRequest) => [await req.text()])
  emptyText(text: string) {
    return { text };
  }

  @Delete('/empty-stream')
  @compiledBinder((req: KilnRequest) => [req])
  async emptyStream(req: KilnRequest) {
    return { bytes: (await new Response(req.body).arrayBuffer()).byteLength };
  }

  @Post('/body')
  @compiledBinder(async (req: KilnRequest) => [req, await req.parseBody()])
  async body(req: KilnRequest, parsed: unknown) {
    const again = await req.json();
    return { parsed, parsedBody: req.parsedBody, sameJson: again === (await req.json()), contentType: req.headers.get('content-type') };
  }

  @Post('/stream')
  @compiledBinder((req: KilnRequest) => [req])
  async stream(req: KilnRequest) {
    const reader = req.body!.getReader();
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString();
    }
    return { text, bodyUsed: req.bodyUsed };
  }

  @Post('/form')
  @compiledBinder(async (req: KilnRequest) => [await req.parseBody()])
  form(parsed: unknown) {
    return parsed;
  }

  @Post('/text')
  @compiledBinder(async (req: KilnRequest) => [await req.parseBody()])
  text(parsed: unknown) {
    return { parsed };
  }

  @Get('/user', (req) => {
    req.user = { id: 'u1' };
  })
  @compiledBinder((req: KilnRequest) => [req.user])
  user(user: unknown) {
    return { user };
  }
}

const config = { controllers: [RequestController] };
const RequestSuite = suite('KilnRequest');

RequestSuite('exposes url, method, params, query, cookies, path, hostname, protocol, headers and flatHeaders', () =>
  overBothTransports(
    config,
    async (send, transport) => {
      const reply = await send('/req/42/info?tag=a&tag=b&q=x%20y&empty=', {
        headers: { 'x-custom': 'hello', cookie: 'session=abc%3D; theme="dark"' },
      });
      assert.is(reply.status, 200);
      const info = reply.json();
      const origin = transport === 'fetch' ? 'http://localhost' : new URL(info.url).origin;
      assert.is(info.url, `${origin}/req/42/info?tag=a&tag=b&q=x%20y&empty=`);
      assert.is(info.method, 'GET');
      assert.equal(info.params, { id: '42' });
      assert.equal(info.query, { tag: ['a', 'b'], q: 'x y', empty: '' });
      assert.equal(info.cookies, { session: 'abc=', theme: 'dark' });
      assert.is(info.path, '/req/42/info');
      assert.is(info.hostname, transport === 'fetch' ? 'localhost' : '127.0.0.1');
      assert.is(info.protocol, 'http');
      assert.is(info.isRequest, true);
      assert.is(info.headersAreNative, true);
      assert.is(info.userAgent, 'hello');
      assert.is(info.flat, 'hello');
      assert.is(info.flatProto, null);
      assert.is(info.queryProto, null);
    },
    { identical: false },
  ),
);

type QueryModel = Record<string, string | string[]>;

/** Adds one pair as req.query holds it: a repeated key collects its values in order. */
function collect(model: QueryModel, key: string, value: string): void {
  const existing = model[key];
  model[key] = existing === undefined ? value : typeof existing === 'string' ? [existing, value] : [...existing, value];
}

/** What a query string means: pairs split at `&`, key and value at the first `=`, `+` a space, then percent-decoded; a repeated key collects its values in order. */
function queryModel(search: string): QueryModel | 'malformed' {
  const model: QueryModel = {};
  for (const pair of search.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    let key: string;
    let value: string;
    try {
      key = decodeURIComponent((at === -1 ? pair : pair.slice(0, at)).replaceAll('+', ' '));
      value = at === -1 ? '' : decodeURIComponent(pair.slice(at + 1).replaceAll('+', ' '));
    } catch {
      return 'malformed';
    }
    collect(model, key, value);
  }
  return model;
}

RequestSuite(
  'for every query string, req.query is its pairs decoded, repeated keys as arrays; malformed percent-encoding answers 400',
  async () => {
    // one seed for both transports, so that both send the same requests
    const seed = Date.now() % 2_147_483_647;
    const piece = fc.constantFrom('a', 'b', 'tag', '=', '&', '+', '%20', '%41', '%2B', '%26', '%3D', '%E2%82%AC', '%', '%z', '%E2', '');
    const search = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(''));
    await overBothTransports(config, async (send) => {
      await fc.assert(
        fc.asyncProperty(search, async (query) => {
          const reply = await send(`/req/query?${query}`);
          const expected = queryModel(query);
          if (expected === 'malformed') {
            assert.is(reply.status, 400);
            assert.is(reply.json().message, 'Malformed percent-encoding in query string');
          } else {
            assert.is(reply.status, 200);
            assert.equal(reply.json(), expected);
          }
        }),
        { seed, numRuns: 150 },
      );
    });
  },
);

RequestSuite('a request without Content-Length or Transfer-Encoding reads an empty body at once, as text and as a stream', () =>
  overBothTransports(config, async (send) => {
    const text = await send('/req/empty-text', { method: 'DELETE' });
    assert.is(text.status, 200);
    assert.equal(text.json(), { text: '' });
    const stream = await send('/req/empty-stream', { method: 'DELETE' });
    assert.is(stream.status, 200);
    assert.equal(stream.json(), { bytes: 0 });
  }),
);

RequestSuite(
  'req.query: for every list of pairs, sent plain or percent-encoded (spaces as + or %20), each key has its values in order',
  async () => {
    // one seed for both transports, so that both send the same requests
    const seed = Date.now() % 2_147_483_647;
    const text = fc.oneof(fc.stringMatching(/^[a-z0-9._~-]{0,5}$/), fc.string({ maxLength: 5, unit: 'grapheme' }));
    const pairs = fc.array(
      fc.tuple(
        text.filter((key) => key !== ''),
        text,
        fc.boolean(),
      ),
      { minLength: 1, maxLength: 5 },
    );
    const encode = (part: string, plus: boolean) => (plus ? encodeURIComponent(part).replaceAll('%20', '+') : encodeURIComponent(part));
    await overBothTransports(
      config,
      async (send) => {
        await fc.assert(
          fc.asyncProperty(pairs, async (list) => {
            const expected: QueryModel = {};
            for (const [key, value] of list) collect(expected, key, value);
            const search = list.map(([key, value, plus]) => `${encode(key, plus)}=${encode(value, plus)}`).join('&');
            const reply = await send(`/req/1/info?${search}`);
            assert.is(reply.status, 200, search);
            assert.equal(reply.json().query, expected, search);
          }),
          { seed, numRuns: 40 },
        );
      },
      { identical: false },
    );
  },
);

RequestSuite('headers can be iterated like a native Headers', () =>
  overBothTransports(config, async (send) => {
    assert.equal((await send('/req/iterate', { headers: { 'x-custom': '1' } })).json(), { hasCustom: true, viaEntries: true });
  }),
);

RequestSuite('ip is the first X-Forwarded-For address', () =>
  overBothTransports(
    config,
    async (send) => {
      const reply = await send('/req/ip', { headers: { 'x-forwarded-for': ' 203.0.113.7 , 10.0.0.1', 'x-real-ip': '198.51.100.1' } });
      assert.is(reply.json().ip, '203.0.113.7');
    },
    { identical: false },
  ),
); // the reply also says the socket address, which only a socket has

RequestSuite('ip falls back to X-Real-IP', () =>
  overBothTransports(
    config,
    async (send) => {
      assert.is((await send('/req/ip', { headers: { 'x-real-ip': '198.51.100.1' } })).json().ip, '198.51.100.1');
    },
    { identical: false },
  ),
);

RequestSuite('ip falls back to the socket address; in process there is none', () =>
  overBothTransports(
    config,
    async (send, transport) => {
      const reply = (await send('/req/ip')).json();
      if (transport === 'socket') {
        assert.is(reply.ip, '127.0.0.1');
        assert.is(reply.remote, '127.0.0.1');
      } else {
        assert.equal(reply, { ip: null, remote: null });
      }
    },
    { identical: false },
  ),
);

RequestSuite('with trustProxy false, ip ignores forwarding headers', async () => {
  const server = await start({ ...config, trustProxy: false });
  try {
    const reply = await request(server.base, '/req/ip', { headers: { 'x-forwarded-for': '203.0.113.7', 'x-real-ip': '198.51.100.1' } });
    assert.is(reply.json().ip, '127.0.0.1');
  } finally {
    await server.close();
  }
});

RequestSuite('on a dual-stack listener an IPv4 client is reported as its IPv4 address', async () => {
  const { createServer } = await import('@kiln/core');
  const app = createServer(config);
  const { port } = await app.listen(0);
  try {
    const reply = await request(`http://127.0.0.1:${port}`, '/req/ip');
    assert.equal(reply.json(), { ip: '127.0.0.1', remote: '127.0.0.1' });
  } finally {
    await app.close();
  }
});

RequestSuite('parseBody parses JSON once; parsedBody and json() see it', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/req/body', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":[1,2]}' });
    assert.equal(reply.json(), { parsed: { a: [1, 2] }, parsedBody: { a: [1, 2] }, sameJson: true, contentType: 'application/json' });
  }),
);

RequestSuite('body is the native stream of the raw bytes', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/req/stream', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'raw bytes' });
    assert.equal(reply.json(), { text: 'raw bytes', bodyUsed: true });
  }),
);

RequestSuite('an urlencoded body is parsed into an object; repeated keys become arrays', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/req/form', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1&b=x+y&b=z',
    });
    assert.equal(reply.json(), { a: '1', b: ['x y', 'z'] });
  }),
);

RequestSuite('a text body is a string', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/req/text', { method: 'POST', headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'hello' });
    assert.equal(reply.json(), { parsed: 'hello' });
  }),
);

RequestSuite('an unsupported body type answers 415', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/req/text', { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: 'x' });
    assert.is(reply.status, 415);
    assert.equal(reply.json(), {
      error: 'Unsupported Media Type',
      message: "Unsupported Content-Type 'application/octet-stream': a @Body parameter reads JSON, urlencoded forms and text/*",
    });
  }),
);

RequestSuite('a body over maxBodySize answers 413', async () => {
  await overBothTransports({ ...config, maxBodySize: 16 }, async (send) => {
    const reply = await send('/req/body', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ long: 'x'.repeat(64) }),
    });
    assert.is(reply.status, 413);
    assert.equal(reply.json(), { error: 'Payload Too Large', message: 'Request body is larger than the limit of 16 bytes' });
  });
});

RequestSuite('middlewares may set their own properties', () =>
  overBothTransports(config, async (send) => {
    assert.equal((await send('/req/user')).json(), { user: { id: 'u1' } });
  }),
);

RequestSuite.run();
