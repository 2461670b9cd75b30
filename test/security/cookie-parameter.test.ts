// @Cookie('name') and its type-level form Cookie<T, Name>: converted like @Query, over a socket on
// 127.0.0.1 and through app.fetch, in strict and non-strict mode, with hostile cookie names.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { Controller, Cookie, Get, cookieSigner, type KilnRequest, Req } from '@kiln/core';
import { overBothTransports } from '../support/server.js';

enum Plan {
  Free = 'free',
  Pro = 'pro',
}

const signer = cookieSigner('a-cookie-secret-of-at-least-32-characters');

@Controller('/prefs')
class PrefsController {
  @Get('/')
  prefs(
    @Cookie('theme') theme: 'light' | 'dark',
    @Cookie('visits') visits?: number,
    @Cookie('since') since?: Date,
    @Cookie('beta') beta?: boolean,
    @Cookie('plan') plan: Plan = Plan.Free,
    @Cookie('filters') filters?: { tags: string[] },
  ) {
    return { theme, visits: visits ?? null, since: since?.toISOString() ?? null, beta, plan, filters: filters ?? null };
  }

  @Get('/typed')
  typed(theme?: Cookie<string>, count?: Cookie<number, 'visit-count'>, proto?: Cookie<string, '__proto__'>) {
    return { theme: theme ?? null, count: count ?? null, proto: proto ?? null };
  }

  @Get('/signed')
  async signed(@Req() req: KilnRequest, @Cookie('cart') raw?: string) {
    return { raw: raw ?? null, verified: (await signer.get(req, 'cart')) ?? null };
  }
}

const Parameter = suite('@Cookie parameter');

Parameter('converts each cookie to its declared type; a default applies when it is absent', async () => {
  await overBothTransports({ controllers: [PrefsController] }, async (send) => {
    const reply = await send('/prefs', {
      headers: {
        cookie: `theme=dark; visits=7; since=2026-01-02T03:04:05.000Z; beta=true; plan=pro; filters=${encodeURIComponent('{"tags":["a"]}')}`,
      },
    });
    assert.is(reply.status, 200);
    assert.equal(reply.json(), {
      theme: 'dark',
      visits: 7,
      since: '2026-01-02T03:04:05.000Z',
      beta: true,
      plan: 'pro',
      filters: { tags: ['a'] },
    });
    const defaults = await send('/prefs', { headers: { cookie: 'theme=light' } });
    assert.equal(defaults.json(), { theme: 'light', visits: null, since: null, beta: false, plan: 'free', filters: null });
  });
});

Parameter('strict: a cookie that does not convert or a required one missing answers 400 naming it', async () => {
  await overBothTransports({ controllers: [PrefsController], strictValidation: true }, async (send) => {
    const cases: [string | undefined, string][] = [
      ['theme=blue', "Parameter 'theme' expected one of [light, dark], got 'blue'"],
      ['theme=dark; visits=many', "Parameter 'visits' expected number, got 'many'"],
      [undefined, "Parameter 'theme' is required"],
      ['other=1', "Parameter 'theme' is required"],
    ];
    for (const [cookie, message] of cases) {
      const reply = await send('/prefs', cookie === undefined ? undefined : { headers: { cookie } });
      assert.is(reply.status, 400, cookie);
      assert.is(reply.json().message, message);
    }
  });
});

Parameter('non-strict: a bad value passes as the spec says (NaN, the raw text)', async () => {
  await overBothTransports({ controllers: [PrefsController] }, async (send) => {
    const reply = await send('/prefs', { headers: { cookie: 'theme=dark; visits=many' } });
    assert.is(reply.status, 200);
    assert.is(reply.json().visits, null, 'NaN is sent as null');
  });
});

Parameter('the type-level form names the cookie after the parameter or its second type argument; __proto__ is plain data', async () => {
  await overBothTransports({ controllers: [PrefsController], strictValidation: true }, async (send) => {
    const reply = await send('/prefs/typed', { headers: { cookie: 'theme=dark; visit-count=4; __proto__=polluted' } });
    assert.equal(reply.json(), { theme: 'dark', count: 4, proto: 'polluted' });
    const absent = await send('/prefs/typed', { headers: { cookie: 'constructor=x; toString=y' } });
    assert.equal(absent.json(), { theme: null, count: null, proto: null }, 'Object.prototype names are not cookies');
  });
});

Parameter('a signed cookie arrives as sent; cookieSigner verifies it', async () => {
  const signed = await signer.sign('cart-1');
  await overBothTransports({ controllers: [PrefsController] }, async (send) => {
    assert.equal((await send('/prefs/signed', { headers: { cookie: `cart=${signed}` } })).json(), { raw: signed, verified: 'cart-1' });
    assert.equal((await send('/prefs/signed', { headers: { cookie: 'cart=cart-1.forged' } })).json(), {
      raw: 'cart-1.forged',
      verified: null,
    });
  });
});

Parameter('for every number: the cookie converts to it exactly', async () => {
  await overBothTransports({ controllers: [PrefsController], strictValidation: true }, async (send) => {
    await fc.assert(
      fc.asyncProperty(fc.double({ noNaN: true, noDefaultInfinity: true }), async (n) => {
        const reply = await send('/prefs', { headers: { cookie: `theme=dark; visits=${String(n)}` } });
        assert.is(reply.json().visits, Object.is(n, -0) ? 0 : n);
      }),
      { numRuns: 60, seed: 39 },
    );
  });
});

Parameter.run();
