// secureHeaders(): the headers on every answer (200, 404, 405, errors from handlers and later
// middlewares, the limiter's 429), per-route overrides, the docs page's own policy, and its
// start-up checks, over a socket on 127.0.0.1 and through app.fetch.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  Controller,
  Get,
  HttpError,
  KilnError,
  Post,
  SecureHeaders,
  createServer,
  cors,
  secureHeaders,
  type MiddlewareFunction,
} from '@kiln/core';
import { rateLimit } from '@kiln/rate-limit';
import { raw } from '../support/raw.js';
import { overBothTransports, start } from '../support/server.js';

const defaultPolicy = "default-src 'self'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'; object-src 'none'";
const defaults: Record<string, string> = {
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'origin-agent-cluster': '?1',
  'x-dns-prefetch-control': 'off',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
  'content-security-policy': defaultPolicy,
};

function assertDefaults(headers: Headers, what: string): void {
  for (const [name, value] of Object.entries(defaults)) assert.is(headers.get(name), value, `${what}: ${name}`);
  assert.is(headers.get('cross-origin-embedder-policy'), null, what);
}

const failing: MiddlewareFunction = (req) => {
  if (req.headers.get('x-deny') !== null) throw new HttpError(401, 'Not signed in');
};

@Controller('/pages')
class PagesController {
  @Get('/ok') ok() {
    return { ok: true };
  }
  @Get('/bad') bad() {
    throw new HttpError(400, 'Bad thing');
  }
  @Get('/crash') crash() {
    throw new Error('boom');
  }
  @Get('/response') response() {
    return new Response('<p>hi</p>', { headers: { 'content-type': 'text/html' } });
  }
  @Post('/ok') post() {
    return { posted: true };
  }
  @Get('/embed')
  @SecureHeaders({ xFrameOptions: false, contentSecurityPolicy: { 'frame-ancestors': ['https://partner.example'] } })
  embed() {
    return 'embeddable';
  }
}

@Controller('/legacy')
@SecureHeaders({ strictTransportSecurity: false, referrerPolicy: 'same-origin' })
class LegacyController {
  @Get('/a') a() {
    return 'a';
  }
  @Get('/b') @SecureHeaders({ referrerPolicy: 'strict-origin' }) b() {
    return 'b';
  }
}

const Headers_ = suite('secureHeaders');

Headers_(
  'every answer carries the default headers: 200, a returned Response, 404, 405, a 400 and a 500 from handlers, a 401 from a later middleware',
  async () => {
    const config = { controllers: [PagesController], middlewares: [secureHeaders(), failing], onError: () => {} };
    await overBothTransports(config, async (send) => {
      const cases: [string, RequestInit | undefined, number][] = [
        ['/pages/ok', undefined, 200],
        ['/pages/response', undefined, 200],
        ['/nowhere', undefined, 404],
        ['/pages/ok', { method: 'DELETE' }, 405],
        ['/pages/bad', undefined, 400],
        ['/pages/crash', undefined, 500],
        ['/pages/ok', { headers: { 'x-deny': '1' } }, 401],
        ['/nowhere', { headers: { 'x-deny': '1' } }, 401],
      ];
      for (const [path, init, status] of cases) {
        const reply = await send(path, init);
        assert.is(reply.status, status, path);
        assertDefaults(reply.headers, `${init?.method ?? 'GET'} ${path} ${status}`);
      }
    });
  },
);

Headers_("the limiter's 429 and a CORS preflight carry them too", async () => {
  const config = {
    controllers: [PagesController],
    middlewares: [secureHeaders(), cors(), rateLimit({ max: 1, keyGenerator: (req) => req.headers.get('x-client') ?? '' })],
  };
  await overBothTransports(config, async (send, transport) => {
    assert.is((await send('/pages/ok', { headers: { 'x-client': transport } })).status, 200);
    const limited = await send('/pages/ok', { headers: { 'x-client': transport } });
    assert.is(limited.status, 429);
    assertDefaults(limited.headers, '429');
    const preflight = await send('/pages/ok', {
      method: 'OPTIONS',
      headers: { origin: 'https://a.example', 'access-control-request-method': 'POST' },
    });
    assert.is(preflight.status, 204);
    assertDefaults(preflight.headers, 'preflight');
  });
});

Headers_('a raw socket 404 for an unknown path carries them once each', async () => {
  const server = await start({ controllers: [PagesController], middlewares: [secureHeaders()] });
  try {
    const reply = await raw(Number(new URL(server.base).port), 'GET /missing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.equal(reply.statuses, [404]);
    const head = reply.text.slice(0, reply.text.indexOf('\r\n\r\n')).toLowerCase();
    for (const name of Object.keys(defaults)) assert.is(head.split(`\r\n${name}:`).length, 2, name);
  } finally {
    await server.close();
  }
});

Headers_('@SecureHeaders on a route or a class changes them there only; the method merges over its class', async () => {
  await overBothTransports({ controllers: [PagesController, LegacyController], middlewares: [secureHeaders()] }, async (send) => {
    const embed = await send('/pages/embed');
    assert.is(embed.headers.get('x-frame-options'), null);
    assert.is(
      embed.headers.get('content-security-policy'),
      "default-src 'self'; base-uri 'self'; form-action 'self'; frame-ancestors https://partner.example; object-src 'none'",
    );
    assert.is(embed.headers.get('x-content-type-options'), 'nosniff');
    const a = await send('/legacy/a');
    assert.is(a.headers.get('strict-transport-security'), null);
    assert.is(a.headers.get('referrer-policy'), 'same-origin');
    const b = await send('/legacy/b');
    assert.is(b.headers.get('strict-transport-security'), null);
    assert.is(b.headers.get('referrer-policy'), 'strict-origin');
    assertDefaults((await send('/pages/ok')).headers, 'a route without @SecureHeaders');
  });
});

Headers_('options: a header turned off, a value changed, a whole policy, report-only, directives removed or added', async () => {
  const config = {
    controllers: [PagesController],
    middlewares: [
      secureHeaders({
        strictTransportSecurity: 'max-age=63072000; includeSubDomains; preload',
        xXssProtection: false,
        permissionsPolicy: 'camera=(), geolocation=()',
        contentSecurityPolicy: { 'object-src': false, 'img-src': ["'self'", 'data:'], 'upgrade-insecure-requests': true },
        contentSecurityPolicyReportOnly: true,
      }),
    ],
  };
  await overBothTransports(config, async (send) => {
    const reply = await send('/pages/ok');
    assert.is(reply.headers.get('strict-transport-security'), 'max-age=63072000; includeSubDomains; preload');
    assert.is(reply.headers.get('x-xss-protection'), null);
    assert.is(reply.headers.get('permissions-policy'), 'camera=(), geolocation=()');
    assert.is(reply.headers.get('content-security-policy'), null);
    assert.is(
      reply.headers.get('content-security-policy-report-only'),
      "default-src 'self'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'; img-src 'self' data:; upgrade-insecure-requests",
    );
  });
  await overBothTransports(
    { controllers: [PagesController], middlewares: [secureHeaders({ contentSecurityPolicy: "default-src 'none'" })] },
    async (send) => {
      assert.is((await send('/pages/ok')).headers.get('content-security-policy'), "default-src 'none'");
    },
  );
});

@Controller('/pages')
class DocumentedController {
  @Get('/ok') ok() {
    return { ok: true };
  }
}

const docsPolicy =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const document = {
  openapi: '3.1.0',
  info: { title: 'Pages', version: '1.0.0' },
  paths: { '/pages/ok': { get: { operationId: 'DocumentedController.ok', responses: { 200: { description: 'OK' } } } } },
};

Headers_('the docs page keeps its own Content-Security-Policy; its other files and the document get the other headers', async () => {
  await overBothTransports(
    { controllers: [DocumentedController], middlewares: [secureHeaders()], docs: { document, ui: '/docs' } },
    async (send) => {
      const page = await send('/docs');
      assert.is(page.status, 200);
      assert.is(page.headers.get('content-security-policy'), docsPolicy);
      assert.is(page.headers.get('x-frame-options'), 'DENY');
      const spec = await send('/openapi.json');
      assert.is(spec.headers.get('content-security-policy'), null);
      assert.is(spec.headers.get('strict-transport-security'), defaults['strict-transport-security']);
    },
  );
});

Headers_('invalid options are refused at start-up with KILN080, naming the option', () => {
  const cases: [unknown, RegExp][] = [
    [{ xFrameOptions: 'DENY\r\nx-evil: 1' }, /xFrameOptions must be a header value/],
    [{ hsts: 'max-age=1' }, /unknown option 'hsts'/],
    [{ referrerPolicy: 1 }, /referrerPolicy must be a string or false/],
    [{ contentSecurityPolicy: { 'Script-Src': ["'self'"] } }, /directive named "Script-Src"/],
    [{ contentSecurityPolicy: { 'script-src': ["'self'; object-src *"] } }, /must be a list of sources without ';'/],
  ];
  for (const [options, message] of cases) {
    try {
      secureHeaders(options as never);
      assert.unreachable(JSON.stringify(options));
    } catch (error) {
      assert.instance(error, KilnError);
      assert.is((error as KilnError).code, 'KILN080');
      assert.match((error as Error).message, message);
    }
  }
  assert.not.throws(() => createServer({ controllers: [PagesController], middlewares: [secureHeaders({ contentSecurityPolicy: false })] }));
});

Headers_.run();
