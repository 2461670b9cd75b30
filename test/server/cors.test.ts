import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get, Put, cors, createServer, type CorsOptions, type KilnConfig, type MiddlewareLike } from '@kiln/core';
import { rateLimit } from '@kiln/rate-limit';
import { raw } from '../support/raw.js';
import { overBothTransports, start } from '../support/server.js';

@Controller('/api')
class ApiController {
  @Get('/items') items() {
    return ['a', 'b'];
  }
  @Put('/items') replace() {
    return { replaced: true };
  }
  @Get('/varies') varies() {
    return new Response('v', { headers: { vary: 'Accept-Encoding', 'content-type': 'text/plain' } });
  }
}

const appOrigin = 'https://app.example';
const listed: CorsOptions = {
  origin: [appOrigin, /\.partner\.example$/],
  credentials: true,
  maxAge: 600,
  exposedHeaders: ['x-total', 'x-page'],
};
const withCors = (options?: CorsOptions, ...more: MiddlewareLike[]): KilnConfig => ({
  controllers: [ApiController],
  middlewares: [cors(options), ...more],
});

/** A browser's preflight, byte for byte: OPTIONS with Origin and Access-Control-Request-*. */
function preflight(path: string, origin: string, method = 'PUT', headers = 'content-type, x-token'): string {
  return (
    `OPTIONS ${path} HTTP/1.1\r\nHost: api.example\r\nOrigin: ${origin}\r\nAccess-Control-Request-Method: ${method}\r\n` +
    `Access-Control-Request-Headers: ${headers}\r\nConnection: close\r\n\r\n`
  );
}

/** The header lines of a raw reply, lower-cased names. */
function headersOf(text: string): Map<string, string> {
  const head = text.slice(0, text.indexOf('\r\n\r\n')).split('\r\n').slice(1);
  return new Map(head.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
}

const Cors = suite('cors');

Cors('a real browser preflight over a socket is answered 204 with the Access-Control-Allow-* headers', async () => {
  const server = await start(withCors(listed));
  try {
    const reply = await raw(Number(new URL(server.base).port), preflight('/api/items', appOrigin));
    assert.equal(reply.statuses, [204]);
    const headers = headersOf(reply.text);
    assert.is(headers.get('access-control-allow-origin'), appOrigin);
    assert.is(headers.get('access-control-allow-credentials'), 'true');
    assert.is(headers.get('access-control-allow-methods'), 'GET,HEAD,PUT,PATCH,POST,DELETE');
    assert.is(headers.get('access-control-allow-headers'), 'content-type, x-token');
    assert.is(headers.get('access-control-max-age'), '600');
    assert.is(headers.get('vary'), 'Origin, Access-Control-Request-Headers');
    assert.is(headers.get('allow'), undefined, "the preflight is cors()'s answer, not the router's");
    assert.ok(reply.text.endsWith('\r\n\r\n'), 'no body');
  } finally {
    await server.close();
  }
});

Cors('a preflight from an origin not listed gets none of the Access-Control-Allow-* headers, only Vary', async () => {
  const server = await start(withCors(listed));
  try {
    const reply = await raw(Number(new URL(server.base).port), preflight('/api/items', 'https://evil.example'));
    assert.equal(reply.statuses, [204]);
    const headers = headersOf(reply.text);
    assert.equal(
      [...headers.keys()].filter((name) => name.startsWith('access-control-')),
      [],
      'no Access-Control-Allow-Origin, -Credentials, -Methods, -Headers or -Max-Age',
    );
    assert.is(headers.get('vary'), 'Origin, Access-Control-Request-Headers');
  } finally {
    await server.close();
  }
});

Cors('preflights are answered before the rate limiter counts them; the limited answer still carries CORS headers', () =>
  overBothTransports(
    withCors(listed, rateLimit({ max: 1, keyGenerator: (req) => req.headers.get('x-client') ?? '' })),
    async (send, transport) => {
      const init = { method: 'OPTIONS', headers: { origin: appOrigin, 'access-control-request-method': 'PUT', 'x-client': transport } };
      for (let i = 0; i < 3; i++) assert.is((await send('/api/items', init)).status, 204);
      const first = await send('/api/items', { headers: { origin: appOrigin, 'x-client': transport } });
      assert.is(first.status, 200);
      const limited = await send('/api/items', { headers: { origin: appOrigin, 'x-client': transport } });
      assert.is(limited.status, 429);
      assert.is(limited.headers.get('access-control-allow-origin'), appOrigin);
    },
    { identical: false },
  ),
); // RateLimit-Reset may fall in another second on the second run

Cors('an allowed origin gets its origin back, credentials, exposed headers and Vary: Origin', () =>
  overBothTransports(withCors(listed), async (send) => {
    for (const origin of [appOrigin, 'https://shop.partner.example']) {
      const reply = await send('/api/items', { headers: { origin } });
      assert.is(reply.status, 200);
      assert.is(reply.headers.get('access-control-allow-origin'), origin);
      assert.is(reply.headers.get('access-control-allow-credentials'), 'true');
      assert.is(reply.headers.get('access-control-expose-headers'), 'x-total,x-page');
      assert.is(reply.headers.get('vary'), 'Origin');
      assert.equal(reply.json(), ['a', 'b']);
    }
  }),
);

Cors('an origin not allowed gets the response without CORS headers (the browser then hides it)', () =>
  overBothTransports(withCors(listed), async (send) => {
    const reply = await send('/api/items', { headers: { origin: 'https://evil.example' } });
    assert.is(reply.status, 200);
    assert.is(reply.headers.get('access-control-allow-origin'), null);
    assert.is(reply.headers.get('access-control-allow-credentials'), null);
    assert.is(reply.headers.get('vary'), 'Origin');
  }),
);

Cors("Vary: Origin is added to a returned Response's own Vary", () =>
  overBothTransports(withCors(listed), async (send) => {
    const reply = await send('/api/varies', { headers: { origin: appOrigin } });
    assert.is(reply.headers.get('vary'), 'Accept-Encoding, Origin');
    assert.is(reply.text, 'v');
  }),
);

Cors('the default allows any origin with *, and needs no Vary', () =>
  overBothTransports(withCors(), async (send) => {
    const reply = await send('/api/items', { headers: { origin: 'https://anyone.example' } });
    assert.is(reply.headers.get('access-control-allow-origin'), '*');
    assert.is(reply.headers.get('vary'), null);
    const pre = await send('/api/items', {
      method: 'OPTIONS',
      headers: { origin: 'https://anyone.example', 'access-control-request-method': 'PUT' },
    });
    assert.is(pre.status, 204);
    assert.is(pre.headers.get('access-control-allow-origin'), '*');
    assert.is(pre.headers.get('access-control-allow-headers'), null);
  }),
);

Cors('404, 405 and errors carry the CORS headers too', () =>
  overBothTransports(withCors({ origin: true }), async (send) => {
    const missing = await send('/api/nowhere', { headers: { origin: appOrigin } });
    assert.is(missing.status, 404);
    assert.is(missing.headers.get('access-control-allow-origin'), appOrigin);
    const wrongMethod = await send('/api/items', { method: 'DELETE', headers: { origin: appOrigin } });
    assert.is(wrongMethod.status, 405);
    assert.is(wrongMethod.headers.get('access-control-allow-origin'), appOrigin);
  }),
);

Cors('an OPTIONS request that is not a preflight gets the router answer (204 Allow) with CORS headers', () =>
  overBothTransports(withCors({ origin: true }), async (send) => {
    const reply = await send('/api/items', { method: 'OPTIONS', headers: { origin: appOrigin } });
    assert.is(reply.status, 204);
    assert.is(reply.headers.get('allow'), 'GET, PUT, HEAD, OPTIONS');
    assert.is(reply.headers.get('access-control-allow-origin'), appOrigin);
    assert.is(reply.headers.get('access-control-allow-methods'), null);
  }),
);

Cors('preflight: false passes preflights on to the router', () =>
  overBothTransports(withCors({ origin: true, preflight: false }), async (send) => {
    const reply = await send('/api/items', { method: 'OPTIONS', headers: { origin: appOrigin, 'access-control-request-method': 'PUT' } });
    assert.is(reply.status, 204);
    assert.is(reply.headers.get('allow'), 'GET, PUT, HEAD, OPTIONS');
    assert.is(reply.headers.get('access-control-allow-methods'), null);
  }),
);

Cors(
  'an origin function decides per request, also asynchronously; methods, allowedHeaders and optionsSuccessStatus are sent as given',
  () =>
    overBothTransports(
      withCors({
        origin: async (origin) => origin?.endsWith('.trusted.example') ?? false,
        methods: ['GET', 'PUT'],
        allowedHeaders: 'content-type',
        optionsSuccessStatus: 200,
      }),
      async (send) => {
        const trusted = await send('/api/items', { headers: { origin: 'https://a.trusted.example' } });
        assert.is(trusted.headers.get('access-control-allow-origin'), 'https://a.trusted.example');
        const other = await send('/api/items', { headers: { origin: 'https://other.example' } });
        assert.is(other.headers.get('access-control-allow-origin'), null);
        const pre = await send('/api/items', {
          method: 'OPTIONS',
          headers: {
            origin: 'https://a.trusted.example',
            'access-control-request-method': 'PUT',
            'access-control-request-headers': 'x-anything',
          },
        });
        assert.is(pre.status, 200);
        assert.is(pre.headers.get('access-control-allow-methods'), 'GET,PUT');
        assert.is(pre.headers.get('access-control-allow-headers'), 'content-type');
        assert.is(pre.headers.get('vary'), 'Origin');
      },
    ),
);

/** Each accepted form of `origin` naming `appOrigin`, with what a request from it is granted. */
const namingForms: [string, CorsOptions['origin'], string][] = [
  ['a string', appOrigin, appOrigin],
  ['a RegExp', /^https:\/\/app\.example$/, appOrigin],
  ['a RegExp with the g flag', /^https:\/\/app\.example$/g, appOrigin],
  ['a list of strings', [appOrigin, 'https://other-app.example'], appOrigin],
  ['a list of RegExps', [/^https:\/\/app\.example$/], appOrigin],
  ['a mixed list', ['https://other-app.example', /^https:\/\/app\.example$/], appOrigin],
  ['a function returning true', (origin: string | undefined) => origin === appOrigin, appOrigin],
  ['an async function returning true', async (origin: string | undefined) => origin === appOrigin, appOrigin],
  ['a function returning the named origin', () => appOrigin, appOrigin],
  ['an async function returning the named origin', async () => appOrigin, appOrigin],
];
/** What a form that names `appOrigin` must refuse: other origins, look-alikes, `null`, and no origin at all. */
const refusedOrigins = [
  'https://evil.example',
  'https://app.example.evil.example',
  'http://app.example',
  'https://APP.example',
  'https://app.example:443',
  'null',
  undefined,
];

Cors('every form of origin that names an origin refuses every other origin, on preflights and on requests (table)', async () => {
  for (const [form, origin, granted] of namingForms) {
    await overBothTransports(withCors({ origin, credentials: true, maxAge: 60 }), async (send, transport) => {
      const where = `${form} (${transport})`;
      const preflightFrom = (from: string | undefined) =>
        send('/api/items', {
          method: 'OPTIONS',
          headers: { ...(from === undefined ? {} : { origin: from }), 'access-control-request-method': 'PUT' },
        });
      const requestFrom = (from: string | undefined) => send('/api/items', { headers: from === undefined ? {} : { origin: from } });
      const allowedPreflight = await preflightFrom(appOrigin);
      assert.is(allowedPreflight.status, 204, where);
      assert.is(allowedPreflight.headers.get('access-control-allow-origin'), granted, `${where}: the named origin is granted`);
      assert.is(allowedPreflight.headers.get('access-control-allow-credentials'), 'true', where);
      const allowed = await requestFrom(appOrigin);
      assert.is(allowed.headers.get('access-control-allow-origin'), granted, where);
      for (const from of refusedOrigins) {
        const label = `${where}, Origin ${JSON.stringify(from)}`;
        for (const reply of [await preflightFrom(from), await requestFrom(from)]) {
          const grants = [...reply.headers.keys()].filter((name) => name.startsWith('access-control-'));
          assert.equal(grants, [], `${label}: no grant headers`);
          assert.ok(reply.headers.get('vary')?.includes('Origin'), `${label}: Vary: Origin`);
        }
      }
    });
  }
});

Cors(
  "the forms that name no origin: '*' and true allow every origin, false adds nothing, a function's '*' is sent as it is (table)",
  async () => {
    const forms: [string, CorsOptions['origin'], (from: string) => string | null][] = [
      ["'*' (the default)", '*', () => '*'],
      ['true', true, (from) => from],
      ['false', false, () => null],
      ["a function returning '*'", () => '*', () => '*'],
      ['a function returning false', () => false, () => null],
    ];
    for (const [form, origin, expected] of forms) {
      await overBothTransports(withCors({ origin }), async (send, transport) => {
        for (const from of [appOrigin, 'https://evil.example']) {
          const reply = await send('/api/items', { headers: { origin: from } });
          assert.is(reply.headers.get('access-control-allow-origin'), expected(from), `${form} (${transport}), Origin ${from}`);
        }
      });
    }
  },
);

Cors('origin: false adds nothing', () =>
  overBothTransports(withCors({ origin: false }), async (send) => {
    const reply = await send('/api/items', { headers: { origin: appOrigin } });
    assert.is(reply.headers.get('access-control-allow-origin'), null);
    assert.is(reply.headers.get('vary'), null);
  }),
);

Cors('invalid options are refused when cors() is called, with KILN011', () => {
  const cases: [CorsOptions, string][] = [
    [{ credentials: true }, "cors: credentials: true needs an origin other than '*'"],
    [{ origin: true, credentials: true }, 'cors: origin: true with credentials: true lets every site (and Origin: null) make credentialed'],
    [
      { origin: true, credentials: true, allowAnyOriginWithCredentials: 1 as never },
      'cors: allowAnyOriginWithCredentials must be true or false',
    ],
    [{ maxAge: -1 }, 'cors: maxAge must be a whole number of seconds, got -1'],
    [{ origin: 42 as never }, 'cors: origin must be a boolean, a string, a RegExp, a list of strings and RegExps, or a function'],
    [{ methods: [1] as never }, 'cors: methods must be a string or a list of strings'],
    [{ optionsSuccessStatus: 404 }, 'cors: optionsSuccessStatus must be a 2xx status, got 404'],
  ];
  for (const [options, message] of cases) {
    assert.throws(
      () => cors(options),
      (error: Error & { code?: string }) => error.code === 'KILN011' && error.message.startsWith(message),
      message,
    );
  }
  assert.ok(createServer(withCors(listed)));
});

Cors('KILN011 recommends naming the origins (a list, a RegExp or a function), never origin: true', () => {
  for (const options of [{ credentials: true }, { origin: true, credentials: true }] as CorsOptions[]) {
    assert.throws(
      () => cors(options),
      (error: Error) =>
        error.message.includes("name the origins allowed: a list (['https://app.example.com']), a RegExp") &&
        error.message.includes('or a function (origin, req) => boolean') &&
        !error.message.includes('use origin: true'),
    );
  }
});

Cors('origin: true with credentials, acknowledged by allowAnyOriginWithCredentials, reflects every origin with credentials', () =>
  overBothTransports(withCors({ origin: true, credentials: true, allowAnyOriginWithCredentials: true }), async (send) => {
    for (const origin of ['https://anyone.example', 'null']) {
      const reply = await send('/api/items', { headers: { origin } });
      assert.is(reply.headers.get('access-control-allow-origin'), origin);
      assert.is(reply.headers.get('access-control-allow-credentials'), 'true');
    }
  }),
);

Cors('a RegExp origin with the g or y flag grants the same origin on every request (no lastIndex carried over)', () =>
  overBothTransports(withCors({ origin: [/\.good\.com$/g, /^https:\/\/sticky\.example$/y] }), async (send) => {
    for (const origin of ['https://a.good.com', 'https://sticky.example']) {
      const granted: (string | null)[] = [];
      for (let i = 0; i < 4; i++)
        granted.push((await send('/api/items', { headers: { origin } })).headers.get('access-control-allow-origin'));
      assert.equal(granted, [origin, origin, origin, origin], origin);
      const pre = await send('/api/items', { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'PUT' } });
      assert.is(pre.headers.get('access-control-allow-origin'), origin);
    }
    const refused = await send('/api/items', { headers: { origin: 'https://good.com.evil.example' } });
    assert.is(refused.headers.get('access-control-allow-origin'), null);
  }),
);

/** The README's timing example, with a fixed figure so that both transports answer alike. */
const timing: MiddlewareLike = async (req, next) => {
  req.setResponseHeader('set-cookie', 'seen=1');
  const response = await next();
  response.headers.set('x-response-time', '1ms');
  return response;
};

Cors('with a middleware that returns await next(), Vary is merged (no "Origin, Origin") and recorded Set-Cookie is sent once', () =>
  overBothTransports(withCors(listed, timing), async (send) => {
    const plain = await send('/api/items', { headers: { origin: appOrigin } });
    assert.is(plain.status, 200);
    assert.is(plain.headers.get('vary'), 'Origin');
    assert.equal(plain.headers.getSetCookie(), ['seen=1']);
    assert.is(plain.headers.get('x-response-time'), '1ms');
    const own = await send('/api/varies', { headers: { origin: appOrigin } });
    assert.is(own.headers.get('vary'), 'Accept-Encoding, Origin');
    assert.equal(own.headers.getSetCookie(), ['seen=1']);
    const missing = await send('/api/none', { headers: { origin: appOrigin } });
    assert.is(missing.status, 404);
    assert.is(missing.headers.get('vary'), 'Origin');
  }),
);

Cors.run();
