// Setting cookies (every attribute, the prefix rules) and signed cookies (tampered, rotated
// secrets, wrong prefix), over a socket on 127.0.0.1; property tests for "every value".
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import {
  Controller,
  Get,
  HttpError,
  KilnError,
  Post,
  Query,
  Req,
  cookieSigner,
  deleteCookie,
  serializeCookie,
  setCookie,
  type CookieOptions,
  type KilnRequest,
} from '@kiln/core';
import { request, start } from '../support/server.js';

const oldSecret = 'an-old-secret-of-at-least-32-characters!!';
const newSecret = 'the-new-secret-of-at-least-32-characters!';
const signedBefore = cookieSigner([oldSecret]);
const signedNow = cookieSigner([newSecret, oldSecret]);
const signedOnlyNew = cookieSigner([newSecret]);

@Controller('/cookies')
class CookiesController {
  @Post('/theme') theme(@Req() req: KilnRequest, @Query('value') value: string) {
    setCookie(req, '__Host-theme', value, { secure: true, maxAge: 86400, sameSite: 'strict' });
    setCookie(req, 'plain', value);
    return { set: true };
  }
  @Post('/everything') everything(@Req() req: KilnRequest) {
    setCookie(req, '__Secure-chip', 'v', {
      secure: true,
      sameSite: 'none',
      partitioned: true,
      maxAge: 60,
      expires: new Date(Date.UTC(2030, 0, 1)),
      path: '/cookies',
      domain: 'example.com',
      httpOnly: false,
      priority: 'high',
    });
    return {};
  }
  @Post('/logout') logout(@Req() req: KilnRequest) {
    deleteCookie(req, 'session');
    return {};
  }
  @Post('/broken') broken(@Req() req: KilnRequest, @Query('case') which: string) {
    const cases: Record<string, [string, CookieOptions]> = {
      host: ['__Host-id', { secure: false }],
      hostPath: ['__Host-id', { secure: true, path: '/app' }],
      hostDomain: ['__Host-id', { secure: true, domain: 'example.com' }],
      secure: ['__Secure-id', {}],
      none: ['id', { sameSite: 'none' }],
    };
    const [name, options] = cases[which]!;
    setCookie(req, name, 'x', options);
    return {};
  }
  @Post('/cart') async cart(@Req() req: KilnRequest, @Query('signer') signer: string) {
    await (signer === 'before' ? signedBefore : signedNow).set(req, 'cart', 'cart-42', { maxAge: 3600 });
    return {};
  }
  @Get('/cart') async readCart(@Req() req: KilnRequest) {
    const cart = await signedNow.get(req, 'cart');
    if (cart === undefined) throw new HttpError(400, 'No valid cart cookie');
    return { cart };
  }
  @Get('/cart-new-only') async readCartNewOnly(@Req() req: KilnRequest) {
    return { cart: (await signedOnlyNew.get(req, 'cart')) ?? null };
  }
}

const Cookies = suite('cookies');

Cookies('setCookie sends every attribute; the default is HttpOnly, Path=/, SameSite=Lax; the value is percent-encoded', async () => {
  const server = await start({ controllers: [CookiesController] });
  try {
    const reply = await request(server.base, '/cookies/theme?value=dark%3B%20x%3Dy', { method: 'POST' });
    assert.is(reply.status, 200);
    assert.equal(reply.headers.getSetCookie(), [
      '__Host-theme=dark%3B%20x%3Dy; Max-Age=86400; Path=/; HttpOnly; Secure; SameSite=Strict',
      'plain=dark%3B%20x%3Dy; Path=/; HttpOnly; SameSite=Lax',
    ]);
    const every = await request(server.base, '/cookies/everything', { method: 'POST' });
    assert.equal(every.headers.getSetCookie(), [
      '__Secure-chip=v; Max-Age=60; Expires=Tue, 01 Jan 2030 00:00:00 GMT; Path=/cookies; Domain=example.com; Secure; SameSite=None; Partitioned; Priority=High',
    ]);
    const logout = await request(server.base, '/cookies/logout', { method: 'POST' });
    assert.equal(logout.headers.getSetCookie(), [
      'session=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/; HttpOnly; SameSite=Lax',
    ]);
    // what it sent reads back through req.cookies unchanged
    const echoed = await request(server.base, '/cookies/cart-new-only', { headers: { cookie: 'plain=dark%3B%20x%3Dy' } });
    assert.is(echoed.status, 200);
  } finally {
    await server.close();
  }
});

Cookies('a broken prefix or SameSite rule is a KILN082 error naming the rule (a 500 reported, nothing sent)', async () => {
  const reported: unknown[] = [];
  const server = await start({ controllers: [CookiesController], onError: (error) => reported.push(error) });
  try {
    const messages: Record<string, string> = {
      host: 'Cookie "__Host-id": the __Host- prefix needs { secure: true } (browsers drop it otherwise)',
      hostPath: `Cookie "__Host-id": the __Host- prefix needs path '/', got "/app"`,
      hostDomain: 'Cookie "__Host-id": the __Host- prefix forbids a domain (the cookie belongs to this host only)',
      secure: 'Cookie "__Secure-id": the __Secure- prefix needs { secure: true } (browsers drop it otherwise)',
      none: 'Cookie "id": sameSite: \'none\' needs { secure: true } (browsers drop it otherwise)',
    };
    for (const [which, message] of Object.entries(messages)) {
      const reply = await request(server.base, `/cookies/broken?case=${which}`, { method: 'POST' });
      assert.is(reply.status, 500, which);
      assert.is(reply.headers.get('set-cookie'), null);
      const error = reported.pop() as KilnError;
      assert.is(error.code, 'KILN082');
      assert.is(error.message, message);
    }
  } finally {
    await server.close();
  }
  assert.throws(() => serializeCookie('bad name', 'x'), /the name must be an HTTP token/);
  assert.throws(() => serializeCookie('__proto__', 'x', { path: 'relative' }), /path must start with '\/'/);
  assert.throws(() => serializeCookie('id', 'x', { domain: 'a.example; Secure' }), /domain "a.example; Secure" cannot be sent/);
  assert.throws(() => serializeCookie('id', 'x', { maxAge: 1.5 }), /maxAge must be a whole number/);
  assert.throws(() => serializeCookie('id', 'x', { partitioned: true }), /partitioned needs \{ secure: true \}/);
});

Cookies('signed cookies: a valid one reads back, a tampered value or signature does not, an unsigned one does not', async () => {
  const server = await start({ controllers: [CookiesController] });
  try {
    const set = await request(server.base, '/cookies/cart', { method: 'POST' });
    const line = set.headers.getSetCookie()[0]!;
    assert.match(line, /^cart=cart-42\.[A-Za-z0-9_-]{43}; Max-Age=3600; Path=\/; HttpOnly; SameSite=Lax$/);
    const signed = line.slice('cart='.length, line.indexOf(';'));
    const read = (cookie: string) => request(server.base, '/cookies/cart', { headers: { cookie } });
    assert.equal((await read(`cart=${signed}`)).json(), { cart: 'cart-42' });
    const signature = signed.slice(signed.indexOf('.') + 1);
    const tampered = [
      `cart=cart-43.${signature}`,
      `cart=cart-42.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`,
      'cart=cart-42',
      `cart=cart-42.${signature}${signature}`,
      'cart=.',
      `cart=cart-42.${'%'.repeat(43)}`,
    ];
    for (const cookie of tampered) {
      const reply = await read(cookie);
      assert.is(reply.status, 400, cookie);
      assert.is(reply.json().message, 'No valid cart cookie');
    }
  } finally {
    await server.close();
  }
});

Cookies('rotation: a cookie signed with the old secret verifies while the old secret is listed, and not once it is dropped', async () => {
  const server = await start({ controllers: [CookiesController] });
  try {
    const line = (await request(server.base, '/cookies/cart?signer=before', { method: 'POST' })).headers.getSetCookie()[0]!;
    const cookie = line.slice(0, line.indexOf(';'));
    assert.equal((await request(server.base, '/cookies/cart', { headers: { cookie } })).json(), { cart: 'cart-42' });
    assert.equal((await request(server.base, '/cookies/cart-new-only', { headers: { cookie } })).json(), { cart: null });
    // new cookies are signed with the first secret, which the new-only signer accepts
    const fresh = (await request(server.base, '/cookies/cart?signer=now', { method: 'POST' })).headers.getSetCookie()[0]!;
    assert.equal(
      (await request(server.base, '/cookies/cart-new-only', { headers: { cookie: fresh.slice(0, fresh.indexOf(';')) } })).json(),
      {
        cart: 'cart-42',
      },
    );
  } finally {
    await server.close();
  }
});

Cookies('a signed cookie under another name (a __Host- name sent as a plain one) is not the same cookie', async () => {
  const server = await start({ controllers: [CookiesController] });
  try {
    const line = (await request(server.base, '/cookies/cart', { method: 'POST' })).headers.getSetCookie()[0]!;
    const value = line.slice('cart='.length, line.indexOf(';'));
    const reply = await request(server.base, '/cookies/cart', { headers: { cookie: `__Host-cart=${value}` } });
    assert.is(reply.status, 400);
  } finally {
    await server.close();
  }
});

Cookies('for every value: sign then verify gives it back; any one-character change is refused', async () => {
  await fc.assert(
    fc.asyncProperty(fc.string({ maxLength: 60 }), fc.nat(), async (value, at) => {
      const signed = await signedNow.sign(value);
      assert.is(await signedNow.verify(signed), value);
      assert.is(await signedBefore.verify(signed), undefined);
      const index = at % signed.length;
      const changed = signed.slice(0, index) + (signed[index] === 'x' ? 'y' : 'x') + signed.slice(index + 1);
      assert.is(await signedNow.verify(changed), undefined);
    }),
    { numRuns: 200, seed: 39 },
  );
  fc.assert(
    fc.property(fc.string({ maxLength: 40 }), (value) => {
      const line = serializeCookie('v', value);
      const sent = line.slice(2, line.indexOf(';'));
      assert.is(decodeURIComponent(sent), value);
      assert.not.match(sent, /[;\s",\\]/);
    }),
    { numRuns: 300, seed: 39 },
  );
});

Cookies('secrets shorter than 32 characters, or none, are KILN083', () => {
  for (const secrets of ['short', [], [newSecret, 'short'], [42]]) {
    try {
      cookieSigner(secrets as never);
      assert.unreachable(JSON.stringify(secrets));
    } catch (error) {
      assert.is((error as KilnError).code, 'KILN083');
    }
  }
});

Cookies.run();
