import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get, Post, compiledBinder, type KilnRequest } from '@kiln/core';
import { overBothTransports } from '../support/server.js';

function snapshot(value: unknown) {
  return JSON.parse(JSON.stringify(value ?? null));
}

@Controller('/proto')
class PrototypeController {
  @Get('/:key')
  @compiledBinder((req: KilnRequest) => [req])
  read(req: KilnRequest) {
    return {
      params: snapshot({ ...req.params }),
      query: snapshot(Object.entries(req.query)),
      cookies: snapshot(Object.entries(req.cookies)),
      flat: req.flatHeaders['constructor'] ?? null,
    };
  }
  @Post('/:key')
  @compiledBinder(async (req: KilnRequest) => [await req.parseBody()])
  body(body: Record<string, unknown>) {
    return {
      keys: Object.keys(body),
      protoIsObject: Object.getPrototypeOf(body) === Object.prototype || Object.getPrototypeOf(body) === null,
    };
  }
}

const Prototype = suite('prototype safety');

function assertClean() {
  assert.is(({} as Record<string, unknown>).polluted, undefined);
  assert.is(({} as Record<string, unknown>).x, undefined);
  assert.equal(Object.keys(Object.prototype), []);
}

Prototype('query, cookies, headers and params named __proto__ / constructor / prototype never pollute Object.prototype', () =>
  overBothTransports({ controllers: [PrototypeController] }, async (send) => {
    const reply = await send('/proto/__proto__?__proto__=x&__proto__[polluted]=1&constructor=c&prototype=p&__proto__.polluted=1', {
      headers: { cookie: '__proto__=polluted; constructor=c; prototype=p', constructor: 'header-value' },
    });
    assert.is(reply.status, 200);
    const data = reply.json();
    assert.equal(data.params, { key: '__proto__' });
    assert.equal(data.query, [
      ['__proto__', 'x'],
      ['__proto__[polluted]', '1'],
      ['constructor', 'c'],
      ['prototype', 'p'],
      ['__proto__.polluted', '1'],
    ]);
    assert.equal(data.cookies, [
      ['__proto__', 'polluted'],
      ['constructor', 'c'],
      ['prototype', 'p'],
    ]);
    assert.is(data.flat, 'header-value');
    assertClean();
  }),
);

Prototype('JSON and form bodies with __proto__ keys never pollute Object.prototype', () =>
  overBothTransports({ controllers: [PrototypeController] }, async (send) => {
    const json = await send('/proto/k', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
    });
    assert.equal(json.json(), { keys: ['__proto__', 'constructor'], protoIsObject: true });
    const form = await send('/proto/k', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '__proto__=1&__proto__%5Bpolluted%5D=1&constructor=2',
    });
    assert.equal(form.json(), { keys: ['__proto__', '__proto__[polluted]', 'constructor'], protoIsObject: true });
    assertClean();
  }),
);

Prototype.run();
