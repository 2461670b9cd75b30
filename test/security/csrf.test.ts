// csrf(): Sec-Fetch-Site and Origin checks as Go's CrossOriginProtection, the double-submit token
// fallback, safe methods untouched, and composition with secureHeaders, cors and the limiter;
// over a socket on 127.0.0.1 and through app.fetch.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get, KilnError, Post, Req, cors, createServer, csrf, csrfToken, secureHeaders, type KilnRequest } from '@kiln/core';
import { rateLimit } from '@kiln/rate-limit';
import { overBothTransports, request, start } from '../support/server.js';

@Controller('/account')
class AccountController {
  @Get('/form') form(@Req() req: KilnRequest) {
    return { token: csrfToken(req) };
  }
  @Get('/me') me() {
    return { me: true };
  }
  @Post('/transfer') transfer() {
    return { transferred: true };
  }
}

const Csrf = suite('csrf');

Csrf('a cross-site POST is refused 403; same-origin and user-initiated (none) pass; safe methods are untouched', async () => {
  await overBothTransports({ controllers: [AccountController], middlewares: [csrf()] }, async (send) => {
    const refused = await send('/account/transfer', {
      method: 'POST',
      headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
    });
    assert.is(refused.status, 403);
    assert.equal(refused.json(), { error: 'Forbidden', message: 'Cross-site request refused (Sec-Fetch-Site: cross-site)' });
    for (const site of ['same-origin', 'none']) {
      const passed = await send('/account/transfer', { method: 'POST', headers: { 'sec-fetch-site': site } });
      assert.is(passed.status, 200, site);
      assert.equal(passed.json(), { transferred: true });
    }
    const sibling = await send('/account/transfer', {
      method: 'POST',
      headers: { 'sec-fetch-site': 'same-site', origin: 'https://blog.example' },
    });
    assert.is(sibling.status, 403, 'same-site is another origin: refused by default');
    for (const method of ['GET', 'HEAD', 'OPTIONS']) {
      const safe = await send('/account/me', { method, headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' } });
      assert.ok(safe.status === 200 || safe.status === 204, `${method} ${safe.status}`);
    }
  });
});

Csrf('without Sec-Fetch-Site the Origin decides: this host passes, another host or "null" is refused, no Origin passes', async () => {
  const server = await start({ controllers: [AccountController], middlewares: [csrf()] });
  const overSocket = (init: RequestInit) => request(server.base, '/account/transfer', { method: 'POST', ...init });
  const inProcess = async (init: RequestInit) => {
    const response = await server.app.fetch(new Request('http://localhost/account/transfer', { method: 'POST', ...init }));
    return { status: response.status, json: async () => response.json() };
  };
  try {
    assert.is((await overSocket({ headers: { origin: server.base } })).status, 200);
    assert.is((await inProcess({ headers: { origin: 'http://localhost' } })).status, 200);
    for (const send of [overSocket, inProcess]) {
      const other = await send({ headers: { origin: 'http://evil.example' } });
      assert.is(other.status, 403);
      assert.is((await other.json()).message, 'Cross-site request refused: its Origin is not this host');
      assert.is((await send({ headers: { origin: 'null' } })).status, 403);
      assert.is((await send({ headers: {} })).status, 200, 'no browser header: a client that is not a browser');
    }
  } finally {
    await server.close();
  }
});

Csrf('trustedOrigins and allowSameSite let named origins and sibling subdomains through', async () => {
  const config = {
    controllers: [AccountController],
    middlewares: [csrf({ trustedOrigins: ['https://app.example'], allowSameSite: true })],
  };
  await overBothTransports(config, async (send) => {
    const trusted = await send('/account/transfer', {
      method: 'POST',
      headers: { 'sec-fetch-site': 'cross-site', origin: 'https://app.example' },
    });
    assert.is(trusted.status, 200);
    const trustedOld = await send('/account/transfer', { method: 'POST', headers: { origin: 'https://app.example', host: 'api.example' } });
    assert.is(trustedOld.status, 200);
    const sibling = await send('/account/transfer', { method: 'POST', headers: { 'sec-fetch-site': 'same-site' } });
    assert.is(sibling.status, 200);
    const evil = await send('/account/transfer', {
      method: 'POST',
      headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
    });
    assert.is(evil.status, 403);
  });
});

Csrf('doubleSubmit: a request with neither header needs the cookie token in X-CSRF-Token or a _csrf form field', async () => {
  const server = await start({ controllers: [AccountController], middlewares: [csrf({ doubleSubmit: true })] });
  try {
    const form = await request(server.base, '/account/form');
    const token: string = form.json().token;
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.is(form.headers.get('set-cookie'), `csrf=${token}; Path=/; SameSite=Strict`);
    const cookie = `csrf=${token}`;
    // the same token again while the cookie is there
    assert.is((await request(server.base, '/account/form', { headers: { cookie } })).json().token, token);
    assert.is((await request(server.base, '/account/form', { headers: { cookie } })).headers.get('set-cookie'), null);

    const missing = await request(server.base, '/account/transfer', { method: 'POST', headers: { cookie } });
    assert.is(missing.status, 403);
    assert.is(missing.json().message, 'Cross-site request refused: the CSRF token is missing or does not match its cookie');
    const wrong = await request(server.base, '/account/transfer', {
      method: 'POST',
      // one character changed (a token ending in 'A' gets a 'B': the wrong token is never the right one)
      headers: { cookie, 'x-csrf-token': `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}` },
    });
    assert.is(wrong.status, 403);
    const noCookie = await request(server.base, '/account/transfer', { method: 'POST', headers: { 'x-csrf-token': token } });
    assert.is(noCookie.status, 403);
    const header = await request(server.base, '/account/transfer', { method: 'POST', headers: { cookie, 'x-csrf-token': token } });
    assert.is(header.status, 200);
    const field = await request(server.base, '/account/transfer', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: `amount=5&_csrf=${token}`,
    });
    assert.is(field.status, 200);
    const multipart = new FormData();
    multipart.set('_csrf', token);
    assert.is((await request(server.base, '/account/transfer', { method: 'POST', headers: { cookie }, body: multipart })).status, 200);
    // a browser header still decides first: cross-site with the right token is refused
    const crossSite = await request(server.base, '/account/transfer', {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': token, 'sec-fetch-site': 'cross-site' },
    });
    assert.is(crossSite.status, 403);
  } finally {
    await server.close();
  }
});

Csrf('doubleSubmit over HTTPS names the cookie __Host-csrf, Secure (app.fetch with an https URL)', async () => {
  const app = createServer({ controllers: [AccountController], middlewares: [csrf({ doubleSubmit: true })] });
  const form = await app.fetch(new Request('https://api.example/account/form'));
  const token: string = (await form.json()).token;
  assert.is(form.headers.get('set-cookie'), `__Host-csrf=${token}; Path=/; Secure; SameSite=Strict`);
  const sent = await app.fetch(
    new Request('https://api.example/account/transfer', {
      method: 'POST',
      headers: { cookie: `__Host-csrf=${token}`, 'x-csrf-token': token },
    }),
  );
  assert.is(sent.status, 200);
  const plainName = await app.fetch(
    new Request('https://api.example/account/transfer', { method: 'POST', headers: { cookie: `csrf=${token}`, 'x-csrf-token': token } }),
  );
  assert.is(plainName.status, 403, 'over HTTPS only the __Host- cookie, which a subdomain cannot set, counts');
});

Csrf('composes with secureHeaders, cors and a limiter: the 403 carries their headers', async () => {
  const config = {
    controllers: [AccountController],
    middlewares: [secureHeaders(), cors({ origin: ['https://app.example'], credentials: true }), rateLimit({ max: 100 }), csrf()],
  };
  await overBothTransports(config, async (send) => {
    const refused = await send('/account/transfer', {
      method: 'POST',
      headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
    });
    assert.is(refused.status, 403);
    assert.is(refused.headers.get('x-content-type-options'), 'nosniff');
    assert.is(refused.headers.get('vary'), 'Origin');
    assert.is(refused.headers.get('ratelimit-limit'), '100');
  });
});

Csrf('invalid options and csrfToken without doubleSubmit are KILN081', async () => {
  for (const options of [
    { trustedOrigins: ['https://app.example/'] },
    { trustedOrigins: ['app.example'] },
    { trustedOrigins: 'https://a.example' },
  ]) {
    try {
      csrf(options as never);
      assert.unreachable(JSON.stringify(options));
    } catch (error) {
      assert.is((error as KilnError).code, 'KILN081');
    }
  }
  await overBothTransports({ controllers: [AccountController], middlewares: [csrf()], onError: () => {} }, async (send) => {
    assert.is((await send('/account/form')).status, 500);
  });
  assert.not.throws(() =>
    createServer({ controllers: [AccountController], middlewares: [csrf({ trustedOrigins: ['https://app.example:8443'] })] }),
  );
});

Csrf.run();
