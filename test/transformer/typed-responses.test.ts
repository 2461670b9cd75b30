// Typed responses with every default on (non-strict mode, typed responses, cors(), a rate limiter,
// dependency injection), over a socket on 127.0.0.1 and through app.fetch: the five cases of issue
// 23 as regressions, and the whole conversion table in non-strict and strict mode, each handler
// returning its bound value inside an object of a declared type. The body is what the spec says.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cors, type KilnConfig } from '@kiln/core';
import { rateLimit } from '@kiln/rate-limit';
import { overBothTransports, type Reply, type Send } from '../support/server.js';
import { ConversionController, RegressionController } from './support/typed-response-controllers.js';

const origin = 'https://app.example';

function everyDefault(logged: unknown[], strictValidation?: boolean): KilnConfig {
  return {
    controllers: [RegressionController, ConversionController],
    // The limiter counts every request; its headers are off so that both transports answer alike.
    middlewares: [cors(), rateLimit({ max: 100_000, standardHeaders: false })],
    onError: (error) => {
      logged.push(error);
    },
    ...(strictValidation === undefined ? {} : { strictValidation }),
  };
}

async function get(send: Send, path: string): Promise<Reply> {
  const reply = await send(path, { headers: { origin } });
  assert.is(reply.headers.get('access-control-allow-origin'), '*', `${path}: cors() answered too`);
  return reply;
}

async function post(send: Send, path: string, body: string): Promise<Reply> {
  return send(path, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body });
}

async function expectText(reply: Reply, text: string, label: string): Promise<void> {
  assert.is(reply.status, 200, `${label}: ${reply.text}`);
  assert.is(reply.headers.get('content-type'), 'application/json; charset=utf-8', label);
  assert.is(reply.text, text, label);
}

// ---- the five cases of the issue ----

test('1. an echoed typed body cannot inject keys: a string where a boolean, literal or enum is declared stays an escaped string', () => {
  const logged: unknown[] = [];
  return overBothTransports(everyDefault(logged), async (send) => {
    const injection = 'true,"isAdmin":true,"name":"mallory"';
    for (const field of ['ok', 'role', 'kind', 'flag']) {
      const value = { name: 'a', role: 'user', level: 1, ok: true, kind: 'plain', flag: true, [field]: injection };
      const reply = await post(send, '/r/profile', JSON.stringify(value));
      await expectText(reply, JSON.stringify(value), field);
      assert.is(reply.json().isAdmin, undefined, field);
      assert.is(reply.json().name, 'a', field);
    }
    const role = await post(send, '/r/role', JSON.stringify({ role: 'user","isAdmin":true,"x":"' }));
    await expectText(role, JSON.stringify({ role: 'user","isAdmin":true,"x":"' }), "@Body('role')");
    assert.equal(logged, []);
  });
});

test("2. the spec's non-strict failure values are sent as they are: null, not 'null'; no 500", () => {
  const logged: unknown[] = [];
  return overBothTransports(everyDefault(logged), async (send) => {
    await expectText(await get(send, '/r/color?c=green'), '{"c":null}', 'enum');
    await expectText(await get(send, '/r/object?o=notjson'), '{"o":null}', 'object');
    await expectText(await get(send, '/r/language?x=de'), '{"x":null}', 'allowed values');
    await expectText(await get(send, '/r/query?__proto__=x'), '{"__proto__":"x"}', 'req.query with __proto__');
    assert.equal(logged, []);
  });
});

test('3. a nested object or {} is sent as it is, and only it: the rest of the value stays filtered', () =>
  overBothTransports(everyDefault([]), async (send) => {
    const reply = await get(send, '/r/meta');
    await expectText(reply, '{"id":1,"meta":{"note":"kept as is"},"extra":{"also":"kept"}}', 'meta');
    assert.not.match(reply.text, 'hunter2');
  }));

test('4. a stub returning { things: [] } (inferred never[]) builds and answers', () =>
  overBothTransports(everyDefault([]), async (send) => {
    await expectText(await get(send, '/r/stub'), '{"things":[]}', 'stub');
  }));

test("5. inherited properties and prototype getters are not sent; the value's own key order is kept; Infinity", async () => {
  await overBothTransports(everyDefault([]), async (send) => {
    await expectText(await get(send, '/r/inherited'), '{"id":1}', 'inherited');
    await expectText(await get(send, '/r/order'), '{"id":1,"bio":"b","nickname":"hello n"}', 'order');
    await expectText(await get(send, '/r/infinity/Infinity'), '{"n":null}', 'Infinity, non-strict');
  });
  await overBothTransports(everyDefault([], true), async (send) => {
    const reply = await get(send, '/r/infinity/Infinity');
    assert.is(reply.status, 400);
    assert.is(reply.json().message, "Parameter 'n' expected number, got 'Infinity'");
  });
});

test('6. Record<string, User> and a number index signature send each value filtered to User; no warning at build', () =>
  overBothTransports(everyDefault([]), async (send) => {
    const reply = await get(send, '/r/users-by-id');
    await expectText(
      reply,
      '{"usersById":{"ann":{"id":1,"name":"ann"},"bob":{"id":2,"name":"bob"},"__proto__":{"id":3,"name":"eve"}},"byRank":{"1":{"id":1,"name":"ann"}},"count":3}',
      'index signatures',
    );
    assert.not.match(reply.text, 'hunter2');
  }));

test('7. a toJSON returning a wrapper with its own toJSON sends the primitive; a wrapper with a changed tag is its primitive', () =>
  overBothTransports(everyDefault([]), async (send) => {
    const reply = await get(send, '/r/wrappers');
    await expectText(reply, '{"n":7,"tagged":8,"s":"text"}', 'wrappers');
    assert.is(
      reply.text,
      JSON.stringify({
        n: { toJSON: () => Object.assign(new Number(7), { toJSON: () => 'never' }) },
        tagged: new Number(8),
        s: new String('text'),
      }),
      "JSON.stringify's own text",
    );
  }));

test('a value JSON.stringify throws on (a bigint, a cycle) answers 500, reported once as KILN046 naming the route', () => {
  const logged: unknown[] = [];
  return overBothTransports(everyDefault(logged), async (send) => {
    for (const [path, method] of [
      ['/r/bigint', 'bigint'],
      ['/r/cycle', 'cycle'],
    ] as const) {
      const before = logged.length;
      const reply = await get(send, path);
      assert.is(reply.status, 500);
      assert.equal(reply.json(), { error: 'Internal Server Error', message: 'Internal Server Error' });
      assert.is(logged.length, before + 1, `${path} is reported once`);
      const error = logged[before] as { code: string; message: string };
      assert.is(error.code, 'KILN046');
      assert.match(error.message, `RegressionController.${method} (GET ${path}): the return value cannot be written as JSON (TypeError: `);
    }
  });
});

// ---- the conversion table, non-strict and strict ----

const date = '2026-01-02T03:04:05.000Z';

/** [path, body in non-strict mode, body in strict mode or the 400's message]. */
const table: [string, string, string | { status: 400; message?: string }][] = [
  ['/c/string?v=a%22b%5C', '{"value":"a\\"b\\\\"}', '{"value":"a\\"b\\\\"}'],
  ['/c/boolean?v=true', '{"value":true}', '{"value":true}'],
  ['/c/boolean?v=1', '{"value":true}', '{"value":true}'],
  ['/c/boolean?v=yes', '{"value":false}', '{"value":false}'],
  ['/c/number?v=42.5', '{"value":42.5}', '{"value":42.5}'],
  ['/c/number?v=abc', '{"value":null}', { status: 400, message: "Parameter 'v' expected number, got 'abc'" }],
  ['/c/number?v=1e999', '{"value":null}', { status: 400, message: "Parameter 'v' expected number, got '1e999'" }],
  ['/c/number', '{}', { status: 400, message: "Parameter 'v' is required" }],
  [`/c/date?v=${date}`, `{"value":"${date}"}`, `{"value":"${date}"}`],
  ['/c/date?v=nope', '{"value":null}', { status: 400, message: "Parameter 'v' expected valid date, got 'nope'" }],
  ['/c/object?v=%7B%22a%22%3A1%7D', '{"value":{"a":1}}', '{"value":{"a":1}}'],
  // An object parameter is checked by typia (no key it does not declare): this one fails it.
  ['/c/object?v=%7B%22a%22%3A1%2C%22b%22%3A2%7D', '{"value":null}', { status: 400 }],
  ['/c/object?v=notjson', '{"value":null}', { status: 400 }],
  ['/c/strings?v=a&v=b', '{"value":["a","b"]}', '{"value":["a","b"]}'],
  ['/c/numbers?v=1&v=x', '{"value":[1,null]}', { status: 400, message: "Parameter 'v[1]' expected number, got 'x'" }],
  ['/c/booleans?v=true&v=0', '{"value":[true,false]}', '{"value":[true,false]}'],
  [`/c/dates?v=${date}&v=bad`, `{"value":["${date}",null]}`, { status: 400, message: "Parameter 'v[1]' expected valid date, got 'bad'" }],
  ['/c/values?v=x', '{"value":"x"}', '{"value":"x"}'],
  ['/c/values?v=z', '{"value":null}', { status: 400 }],
  ['/c/enum?v=2', '{"value":2}', '{"value":2}'],
  ['/c/enum?v=7', '{"value":null}', { status: 400 }],
  ['/c/string-enum?v=red', '{"value":"red"}', '{"value":"red"}'],
  ['/c/string-enum?v=green', '{"value":null}', { status: 400 }],
];

for (const strict of [false, true]) {
  test(`the conversion table, ${strict ? 'strict' : 'non-strict'} mode: each bound value inside a declared-type object is sent as the spec says`, () => {
    const logged: unknown[] = [];
    return overBothTransports(everyDefault(logged, strict), async (send) => {
      for (const [path, lenient, strictAnswer] of table) {
        const reply = await get(send, path);
        const want = strict ? strictAnswer : lenient;
        if (typeof want === 'string') await expectText(reply, want, path);
        else {
          assert.is(reply.status, 400, `${path}: ${reply.text}`);
          assert.is(reply.json().error, 'Bad Request', path);
          if (want.message !== undefined) assert.is(reply.json().message, want.message, path);
        }
      }
      // A typed body: unchecked in non-strict mode, so the answer filters it; strict mode refuses
      // a key the type does not declare. An unparsable body is undefined (non-strict) or a 400.
      await expectText(await post(send, '/c/body', '{"name":"a"}'), '{"value":{"name":"a"}}', 'body');
      const extra = await post(send, '/c/body', '{"name":"a","admin":true}');
      if (strict) assert.is(extra.status, 400);
      else await expectText(extra, '{"value":{"name":"a"}}', 'body with a key its type does not declare');
      const broken = await post(send, '/c/body', '{"name":');
      if (strict) assert.is(broken.status, 400);
      else await expectText(broken, '{}', 'unparsable body, non-strict');
      assert.equal(logged, []);
    });
  });
}

test.run();
