// jwtGuard() and apiKeyGuard() over a socket on 127.0.0.1: HS/RS/ES/EdDSA tokens made by jose,
// every refusal (expired, not yet valid, wrong aud/iss, alg none, an HS token against an RS key,
// a bad signature, garbage), a remote JWKS served by the test (cached, rotated, unreachable), the
// typed claims, and the security schemes in the served OpenAPI document.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, exportSPKI, generateKeyPair, type JWK } from 'jose';
import {
  Controller,
  Get,
  KilnError,
  Req,
  apiKeyGuard,
  jwtGuard,
  secureHeaders,
  type JwtGuardOptions,
  type KilnRequest,
  type MiddlewareFunction,
} from '@kiln/core';
import { rateLimit } from '@kiln/rate-limit';
import { request, start } from '../support/server.js';

declare module '@kiln/core' {
  interface JwtClaims {
    sub?: string;
    scope?: string;
  }
}

const hsSecret = 'an-hs256-secret-of-at-least-32-characters';
const hsKey = new TextEncoder().encode(hsSecret);
const now = () => Math.floor(Date.now() / 1000);

let guard: MiddlewareFunction = () => undefined;
const current: MiddlewareFunction = (req, next) => guard(req, next);

@Controller('/api')
class ApiController {
  @Get('/me', current) me(@Req() req: KilnRequest) {
    const sub: string | undefined = req.claims.sub;
    return { sub, scope: req.claims.scope ?? null };
  }
}

async function serveWith(options: JwtGuardOptions) {
  guard = jwtGuard(options);
  return start({ controllers: [ApiController], middlewares: [secureHeaders()], onError: () => {} });
}

function hsToken(claims: Record<string, unknown> = {}, alg = 'HS256') {
  return new SignJWT({ scope: 'read', ...claims })
    .setProtectedHeader({ alg })
    .setSubject('user-1')
    .setExpirationTime(now() + 60);
}

const Jwt = suite('jwtGuard');

Jwt('HS256: a valid token passes and its claims are on req.claims; a missing one is 401 with WWW-Authenticate: Bearer', async () => {
  const server = await serveWith({ algorithms: ['HS256'], secret: hsSecret, audience: 'api', issuer: 'https://id.example' });
  try {
    const token = await hsToken().setAudience('api').setIssuer('https://id.example').sign(hsKey);
    const ok = await request(server.base, '/api/me', { headers: { authorization: `Bearer ${token}` } });
    assert.is(ok.status, 200);
    assert.equal(ok.json(), { sub: 'user-1', scope: 'read' });
    const missing = await request(server.base, '/api/me');
    assert.is(missing.status, 401);
    assert.equal(missing.json(), { error: 'Unauthorized', message: 'A bearer token is required' });
    assert.is(missing.headers.get('www-authenticate'), 'Bearer');
    assert.is(missing.headers.get('x-content-type-options'), 'nosniff', 'secureHeaders on the 401');
    const basic = await request(server.base, '/api/me', { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    assert.is(basic.status, 401);
  } finally {
    await server.close();
  }
});

Jwt('refusals: expired, not yet valid, wrong aud, wrong iss, no exp, bad signature, alg none — each 401 naming the check', async () => {
  const server = await serveWith({
    algorithms: ['HS256'],
    secret: hsSecret,
    audience: 'api',
    issuer: 'https://id.example',
    clockTolerance: 5,
  });
  try {
    const good = () => hsToken().setAudience('api').setIssuer('https://id.example');
    const otherKey = new TextEncoder().encode('another-secret-of-at-least-32-characters!!');
    const unsignedHeader = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const unsignedBody = Buffer.from(JSON.stringify({ sub: 'admin', aud: 'api', iss: 'https://id.example', exp: now() + 60 })).toString(
      'base64url',
    );
    const cases: [string, string][] = [
      [
        await good()
          .setExpirationTime(now() - 60)
          .sign(hsKey),
        'The token has expired',
      ],
      [
        await good()
          .setNotBefore(now() + 60)
          .sign(hsKey),
        'The token is not valid yet',
      ],
      [await hsToken().setAudience('other').setIssuer('https://id.example').sign(hsKey), "The token's aud claim is not accepted"],
      [await hsToken().setAudience('api').setIssuer('https://evil.example').sign(hsKey), "The token's iss claim is not accepted"],
      [
        await new SignJWT({ aud: 'api', iss: 'https://id.example' }).setProtectedHeader({ alg: 'HS256' }).sign(hsKey),
        "The token's exp claim is not accepted",
      ],
      [await good().sign(otherKey), "The token's signature is invalid"],
      [`${unsignedHeader}.${unsignedBody}.`, "The token's algorithm is not accepted"],
      [
        await good()
          .sign(hsKey)
          .then((t) => `${t.slice(0, t.lastIndexOf('.'))}.`),
        "The token's signature is invalid",
      ],
      [await hsToken({}, 'HS512').setAudience('api').setIssuer('https://id.example').sign(hsKey), "The token's algorithm is not accepted"],
    ];
    for (const [token, message] of cases) {
      const reply = await request(server.base, '/api/me', { headers: { authorization: `Bearer ${token}` } });
      assert.is(reply.status, 401, message);
      assert.is(reply.json().message, message);
      assert.is(reply.headers.get('www-authenticate'), 'Bearer error="invalid_token"');
    }
    // within the clock tolerance: expired 2 s ago passes with 5 s allowed
    const lenient = await good()
      .setExpirationTime(now() - 2)
      .sign(hsKey);
    assert.is((await request(server.base, '/api/me', { headers: { authorization: `Bearer ${lenient}` } })).status, 200);
  } finally {
    await server.close();
  }
});

Jwt('RS256 with a PEM key: a valid token passes; an HS256 token signed with the public key as its secret is refused', async () => {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const pem = await exportSPKI(publicKey);
  const server = await serveWith({ algorithms: ['RS256'], publicKey: pem });
  try {
    const rs = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256' })
      .setSubject('rs-user')
      .setExpirationTime(now() + 60)
      .sign(privateKey);
    assert.equal((await request(server.base, '/api/me', { headers: { authorization: `Bearer ${rs}` } })).json(), {
      sub: 'rs-user',
      scope: null,
    });
    // the classic algorithm confusion: the public key, which everyone has, used as an HMAC secret
    const confused = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('admin')
      .setExpirationTime(now() + 60)
      .sign(new TextEncoder().encode(pem));
    const reply = await request(server.base, '/api/me', { headers: { authorization: `Bearer ${confused}` } });
    assert.is(reply.status, 401);
    assert.is(reply.json().message, "The token's algorithm is not accepted");
  } finally {
    await server.close();
  }
});

Jwt('ES256 and EdDSA with a public JWK', async () => {
  for (const alg of ['ES256', 'EdDSA'] as const) {
    const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true, crv: alg === 'EdDSA' ? 'Ed25519' : undefined });
    const server = await serveWith({ algorithms: [alg], publicKey: (await exportJWK(publicKey)) as Record<string, unknown> });
    try {
      const token = await new SignJWT({})
        .setProtectedHeader({ alg })
        .setSubject(alg)
        .setExpirationTime(now() + 60)
        .sign(privateKey);
      assert.equal(
        (await request(server.base, '/api/me', { headers: { authorization: `Bearer ${token}` } })).json(),
        { sub: alg, scope: null },
        alg,
      );
    } finally {
      await server.close();
    }
  }
});

Jwt('JWT-shaped garbage is 401 "The token is malformed", never a 500', async () => {
  const server = await serveWith({ algorithms: ['HS256'], secret: hsSecret });
  try {
    const b64 = (value: string) => Buffer.from(value).toString('base64url');
    const garbage = [
      'a.b.c',
      '...',
      'x'.repeat(9000),
      `${b64('{"alg":"HS256"')}.${b64('{}')}.sig`,
      `${b64('[]')}.${b64('{}')}.sig`,
      `${b64('{"alg":"HS256","crit":["x"]}')}.${b64('{"exp":1}')}.sig`,
      `${b64('{"alg":"HS256"}')}.${b64('not json')}.sig`,
      `${b64('{"alg":"HS256"}')}.${b64('{"__proto__":{"admin":true},"exp":99999999999}')}.sig`,
      'eyJ.eyJ.',
      'a.b',
      'a.b.c.d.e',
      'bearer with spaces',
      '%00.%00.%00',
    ];
    for (const token of garbage) {
      const reply = await request(server.base, '/api/me', { headers: { authorization: `Bearer ${token}` } });
      assert.is(reply.status, 401, token.slice(0, 40));
      assert.ok(
        ['The token is malformed', "The token's signature is invalid"].includes(reply.json().message),
        `${token.slice(0, 40)}: ${reply.json().message}`,
      );
    }
  } finally {
    await server.close();
  }
});

/** A JWKS endpoint of the test's own on 127.0.0.1, counting its fetches. */
async function jwksServer(initial: JWK[]) {
  let keys = initial;
  let fetches = 0;
  let down = false;
  const server: Server = createHttpServer((req, res) => {
    fetches++;
    if (down) {
      res.writeHead(500).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`,
    fetches: () => fetches,
    rotate(next: JWK[]) {
      keys = next;
    },
    fail() {
      down = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function keyPair(kid: string) {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const sign = (sub: string) =>
    new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid })
      .setSubject(sub)
      .setExpirationTime(now() + 60)
      .sign(privateKey);
  return { jwk, sign };
}

Jwt(
  'a remote JWKS: fetched once and cached; a rotated key is fetched when a token names it; an unknown kid is 401; the set unreachable is 503',
  async () => {
    const first = await keyPair('k1');
    const second = await keyPair('k2');
    const stranger = await keyPair('k9');
    const jwks = await jwksServer([first.jwk]);
    const server = await serveWith({ algorithms: ['RS256'], jwks: { url: jwks.url, cooldownDuration: 0, cacheMaxAge: 600_000 } });
    try {
      for (let i = 0; i < 5; i++) {
        const reply = await request(server.base, '/api/me', { headers: { authorization: `Bearer ${await first.sign(`u${i}`)}` } });
        assert.equal(reply.json(), { sub: `u${i}`, scope: null });
      }
      assert.is(jwks.fetches(), 1, 'cached');
      // the provider rotates: k2 is published, k1 stays a while
      jwks.rotate([second.jwk, first.jwk]);
      const rotated = await request(server.base, '/api/me', {
        headers: { authorization: `Bearer ${await second.sign('after-rotation')}` },
      });
      assert.equal(rotated.json(), { sub: 'after-rotation', scope: null });
      assert.is(jwks.fetches(), 2, 'fetched again for the new kid');
      assert.is((await request(server.base, '/api/me', { headers: { authorization: `Bearer ${await first.sign('old')}` } })).status, 200);
      assert.is(jwks.fetches(), 2);
      const unknown = await request(server.base, '/api/me', { headers: { authorization: `Bearer ${await stranger.sign('x')}` } });
      assert.is(unknown.status, 401);
      assert.is(unknown.json().message, 'No key of the issuer matches the token');
      jwks.fail();
      const down = await request(server.base, '/api/me', { headers: { authorization: `Bearer ${await stranger.sign('y')}` } });
      assert.is(down.status, 503);
      assert.is(down.json().message, 'The keys that verify tokens cannot be fetched now');
    } finally {
      await server.close();
      await jwks.close();
    }
  },
);

@Controller('/guarded', jwtGuard({ algorithms: ['HS256'], secret: hsSecret }))
class GuardedController {
  @Get('/') list() {
    return [1];
  }
}

@Controller('/partners', apiKeyGuard({ keys: ['partner-key-0123456789'], header: 'X-Partner-Key' }))
class PartnersController {
  @Get('/') list() {
    return [2];
  }
}

@Controller('/lookup', apiKeyGuard({ keys: async (key) => key === 'looked-up-key', schemeName: 'lookupKey' }))
class LookupController {
  @Get('/') list() {
    return [3];
  }
}

const document = {
  openapi: '3.1.0',
  info: { title: 'Guarded', version: '1.0.0' },
  paths: {
    '/guarded': { get: { operationId: 'GuardedController.list', responses: { 200: { description: 'OK' } } } },
    '/partners': { get: { operationId: 'PartnersController.list', responses: { 200: { description: 'OK' } } } },
    '/lookup': { get: { operationId: 'LookupController.list', responses: { 200: { description: 'OK' } } } },
  },
};

Jwt('the served OpenAPI document gets the bearer and API-key security schemes and a requirement on each guarded operation', async () => {
  const server = await start({ controllers: [GuardedController, PartnersController, LookupController], docs: { document, ui: '/docs' } });
  try {
    const served = (await request(server.base, '/openapi.json')).json();
    assert.equal(served.components.securitySchemes, {
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      apiKeyAuth: { type: 'apiKey', in: 'header', name: 'x-partner-key' },
      lookupKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
    });
    assert.equal(served.paths['/guarded'].get.security, [{ bearerAuth: [] }]);
    assert.equal(served.paths['/partners'].get.security, [{ apiKeyAuth: [] }]);
    assert.ok(served.paths['/guarded'].get.responses['401']);
  } finally {
    await server.close();
  }
});

Jwt('apiKeyGuard: the listed key passes, any other or none is 401; a lookup function decides', async () => {
  const server = await start({ controllers: [PartnersController, LookupController], middlewares: [rateLimit({ max: 100 })] });
  try {
    assert.is((await request(server.base, '/partners', { headers: { 'x-partner-key': 'partner-key-0123456789' } })).status, 200);
    for (const key of ['partner-key-012345678', 'partner-key-0123456789x', '', 'PARTNER-KEY-0123456789']) {
      const reply = await request(server.base, '/partners', { headers: { 'x-partner-key': key } });
      assert.is(reply.status, 401, key);
      assert.is(reply.json().message, 'A valid API key is required');
    }
    assert.is((await request(server.base, '/partners')).status, 401);
    assert.is((await request(server.base, '/lookup', { headers: { 'x-api-key': 'looked-up-key' } })).status, 200);
    assert.is((await request(server.base, '/lookup', { headers: { 'x-api-key': 'nope' } })).status, 401);
  } finally {
    await server.close();
  }
});

Jwt('bad options are KILN086 at start-up: no algorithms, none, a secret too short, a key missing', () => {
  const cases: [unknown, RegExp][] = [
    [{}, /algorithms is required/],
    [{ algorithms: ['none'] }, /'none' is never accepted/],
    [{ algorithms: ['HS256', 'NONE'], secret: hsSecret }, /'none' is never accepted/],
    [{ algorithms: ['HS256'], secret: 'short' }, /at least 32/],
    [{ algorithms: ['HS256'] }, /HS256 needs a secret/],
    [{ algorithms: ['RS256'] }, /RS256 needs a publicKey or a jwks/],
    [{ algorithms: ['RS256'], secret: hsSecret }, /no HS algorithm is accepted|needs a publicKey/],
    [{ algorithms: ['XS256'], secret: hsSecret }, /unknown algorithm "XS256"/],
    [{ algorithms: ['RS256'], jwks: { url: 'file:///etc/passwd' } }, /jwks.url must be an http\(s\) URL/],
  ];
  for (const [options, message] of cases) {
    try {
      jwtGuard(options as never);
      assert.unreachable(JSON.stringify(options));
    } catch (error) {
      assert.is((error as KilnError).code, 'KILN086', JSON.stringify(options));
      assert.match((error as Error).message, message);
    }
  }
  assert.throws(
    () => apiKeyGuard({ keys: ['short'] }),
    (error: KilnError) => error.code === 'KILN086',
  );
});

Jwt.run();
