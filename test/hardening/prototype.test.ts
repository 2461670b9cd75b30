import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get, Header, Post, compiledBinder, type KilnRequest } from '@kiln/core';
import { overBothTransports, start } from '../support/server.js';
import { lastJsonBody, raw } from '../support/raw.js';

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

const inheritedNames = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

@Controller('/inherited')
class InheritedHeadersController {
  @Get('/typed')
  typed(@Header('constructor') a?: string, @Header('__proto__') b?: string, @Header('toString') c?: string) {
    return { a: a ?? null, b: b ?? null, c: c ?? null };
  }
  @Get('/methods')
  @compiledBinder((req: KilnRequest) => [req])
  methods(req: KilnRequest) {
    return {
      get: inheritedNames.map((name) => req.headers.get(name)),
      has: inheritedNames.map((name) => req.headers.has(name)),
      flat: inheritedNames.map((name) => (req.flatHeaders[name.toLowerCase()] as string | undefined) ?? null),
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

Prototype('@Header and req.headers.get/has of inherited names (constructor, __proto__, toString) not sent: undefined / null / false', () =>
  overBothTransports({ controllers: [InheritedHeadersController], strictValidation: true }, async (send) => {
    const typed = await send('/inherited/typed');
    assert.is(typed.status, 200);
    assert.equal(typed.json(), { a: null, b: null, c: null });
    const methods = await send('/inherited/methods');
    assert.is(methods.status, 200);
    assert.equal(methods.json(), {
      get: [null, null, null, null, null],
      has: [false, false, false, false, false],
      flat: [null, null, null, null, null],
    });
  }),
);

Prototype('headers named constructor, __proto__ and toString that are sent are read as sent', async () => {
  const server = await start({ controllers: [InheritedHeadersController], strictValidation: true });
  try {
    const port = Number(new URL(server.base).port);
    // fetch() would refuse none of these names, but a raw request shows the exact bytes.
    const head = 'Host: x\r\nConstructor: c1\r\n__proto__: p1\r\n__Proto__: p2\r\ntoString: t1\r\nConnection: close\r\n\r\n';
    const typed = await raw(port, `GET /inherited/typed HTTP/1.1\r\n${head}`);
    assert.equal(typed.statuses, [200]);
    assert.equal(lastJsonBody(typed), { a: 'c1', b: 'p1, p2', c: 't1' });
    const methods = await raw(port, `GET /inherited/methods HTTP/1.1\r\n${head}`);
    assert.equal(lastJsonBody(methods), {
      get: ['c1', 'p1, p2', 't1', null, null],
      has: [true, true, true, false, false],
      flat: ['c1', 'p1, p2', 't1', null, null],
    });
    const fetched = await server.app.fetch(
      new Request('http://localhost/inherited/typed', {
        headers: [
          ['constructor', 'c1'],
          ['__proto__', 'p1'],
          ['tostring', 't1'],
        ],
      }),
    );
    assert.equal(await fetched.json(), { a: 'c1', b: 'p1', c: 't1' });
  } finally {
    await server.close();
  }
  assert.equal(Object.keys(Object.prototype), []);
});

Prototype.run();
