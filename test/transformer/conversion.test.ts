// Every row of the conversion table, in both modes, over a real socket and through app.fetch.
// The controllers are compiled by the real plugin (test/tsconfig.json).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { start, request, requestInProcess, type Reply, type Started } from '../support/server.js';
import { conversionControllers } from './support/conversion-controllers.js';

type Outcome = { status: 200; value: unknown } | { status: number; message: string } | { status: 200; json: unknown };
interface Case {
  readonly name: string;
  readonly path: string;
  readonly init?: RequestInit;
  readonly lenient: Outcome;
  /** Defaults to the lenient outcome: conversions that cannot fail behave the same in both modes. */
  readonly strict?: Outcome;
}

const value = (v: unknown): Outcome => ({ status: 200, value: v });
const bad = (message: string): Outcome => ({ status: 400, message });
const answer = (json: unknown): Outcome => ({ status: 200, json });
const jsonBody = (text: string): RequestInit => ({ method: 'POST', body: text, headers: { 'content-type': 'application/json' } });
const jsonError = (text: string): string => {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('valid JSON');
};
const day = 'Date(2024-01-02T00:00:00.000Z)';

const cases: Case[] = [
  // string
  { name: 'string is passed as sent', path: '/q/string?v=hello%20world', lenient: value('hello world') },
  { name: 'string: first occurrence of a repeated key', path: '/q/string?v=a&v=b', lenient: value('a') },
  { name: 'string: absent optional is undefined', path: '/q/string', lenient: value('(undefined)') },
  { name: 'string: absent required', path: '/q/required-string', lenient: value('(undefined)'), strict: bad("Parameter 'v' is required") },
  { name: 'string: empty text is present', path: '/q/required-string?v=', lenient: value('') },
  // boolean
  { name: 'boolean: true', path: '/q/boolean?v=true', lenient: value(true) },
  { name: 'boolean: 1', path: '/q/boolean?v=1', lenient: value(true) },
  { name: 'boolean: other text is false', path: '/q/boolean?v=yes', lenient: value(false) },
  { name: 'boolean: absent is false', path: '/q/boolean', lenient: value(false) },
  // number
  { name: 'number converts', path: '/q/number?v=42.5', lenient: value(42.5) },
  { name: 'number: negative and exponent', path: '/q/number?v=-1e3', lenient: value(-1000) },
  { name: 'number that fails', path: '/q/number?v=abc', lenient: value('NaN'), strict: bad("Parameter 'v' expected number, got 'abc'") },
  { name: 'number: empty text fails', path: '/q/number?v=', lenient: value('NaN'), strict: bad("Parameter 'v' expected number, got ''") },
  { name: 'number: absent optional is undefined', path: '/q/number', lenient: value('(undefined)') },
  { name: 'number: absent required', path: '/q/required-number', lenient: value('(undefined)'), strict: bad("Parameter 'v' is required") },
  { name: 'number | undefined is optional', path: '/q/undefined-union', lenient: value('(undefined)') },
  { name: 'number with a default initializer', path: '/q/default', lenient: value(7) },
  { name: 'number with a default, given', path: '/q/default?v=3', lenient: value(3) },
  // Date
  { name: 'Date converts', path: '/q/date?v=2024-01-02', lenient: value(day) },
  { name: 'Date that fails', path: '/q/date?v=someday', lenient: value('Invalid Date'), strict: bad("Parameter 'v' expected valid date, got 'someday'") },
  // object (JSON)
  { name: 'object from JSON text', path: `/q/object?v=${encodeURIComponent('{"a":1}')}`, lenient: value({ a: 1 }) },
  { name: 'object that fails', path: `/q/object?v=${encodeURIComponent('{a:1')}`, lenient: value(null), strict: bad("Parameter 'v' expected valid JSON, got '{a:1'") },
  // string[]
  { name: 'string[]: each occurrence', path: '/q/strings?v=a&v=b&v=c', lenient: value(['a', 'b', 'c']) },
  { name: 'string[]: one occurrence', path: '/q/strings?v=a', lenient: value(['a']) },
  { name: 'string[]: absent is []', path: '/q/strings', lenient: value([]) },
  // number[], boolean[], Date[]
  { name: 'number[] converts each item', path: '/q/numbers?v=1&v=2.5', lenient: value([1, 2.5]) },
  { name: 'number[] item that fails names its index', path: '/q/numbers?v=1&v=x&v=3', lenient: value([1, 'NaN', 3]), strict: bad("Parameter 'v[1]' expected number, got 'x'") },
  { name: 'number[]: absent is []', path: '/q/numbers', lenient: value([]) },
  { name: 'boolean[] converts each item', path: '/q/booleans?v=true&v=0&v=1', lenient: value([true, false, true]) },
  { name: 'Date[] converts each item', path: '/q/dates?v=2024-01-02', lenient: value([day]) },
  { name: 'Date[] item that fails names its index', path: '/q/dates?v=x', lenient: value(['Invalid Date']), strict: bad("Parameter 'v[0]' expected valid date, got 'x'") },
  { name: 'object[] parses each item', path: `/q/objects?v=${encodeURIComponent('{"a":1}')}&v=nope`, lenient: value([{ a: 1 }, null]), strict: bad("Parameter 'v[1]' expected valid JSON, got 'nope'") },
  // enums and literal unions
  { name: 'string enum: allowed value', path: '/q/string-enum?v=desc', lenient: value('desc') },
  { name: 'string enum: other value', path: '/q/string-enum?v=up', lenient: value(null), strict: bad("Parameter 'v' expected one of [asc, desc], got 'up'") },
  { name: 'numeric enum: numeric text becomes its number', path: '/q/numeric-enum?v=2', lenient: value(2) },
  { name: 'numeric enum: other value', path: '/q/numeric-enum?v=7', lenient: value(null), strict: bad("Parameter 'v' expected one of [0, 1, 2], got '7'") },
  { name: 'numeric enum: member name is not a value', path: '/q/numeric-enum?v=High', lenient: value(null), strict: bad("Parameter 'v' expected one of [0, 1, 2], got 'High'") },
  { name: 'string literal union', path: '/q/string-union?v=b', lenient: value('b') },
  { name: 'string literal union: other value', path: '/q/string-union?v=d', lenient: value(null), strict: bad("Parameter 'v' expected one of [a, b, c], got 'd'") },
  { name: 'number literal union', path: '/q/number-union?v=20', lenient: value(20) },
  { name: 'number literal union: other value', path: '/q/number-union?v=30', lenient: value(null), strict: bad("Parameter 'v' expected one of [10, 20], got '30'") },
  { name: 'enum[] checks each item', path: '/q/enum-array?v=asc&v=sideways', lenient: value(['asc', null]), strict: bad("Parameter 'v[1]' expected one of [asc, desc], got 'sideways'") },
  // the items argument
  { name: 'items [Number] on an unknown parameter', path: '/q/items-number?v=1&v=x', lenient: value([1, 'NaN']), strict: bad("Parameter 'v[1]' expected number, got 'x'") },
  { name: 'items [Date] agreeing with Date[]', path: '/q/items-date?v=2024-01-02', lenient: value([day]) },
  { name: 'items: allowed values narrow a string', path: '/q/items-values?v=z', lenient: value(null), strict: bad("Parameter 'v' expected one of [x, y], got 'z'") },
  { name: 'items: allowed values, allowed', path: '/q/items-values?v=y', lenient: value('y') },
  { name: 'items: an as-const array of values', path: '/q/items-const?v=oval', lenient: value(null), strict: bad("Parameter 'v' expected one of [circle, square], got 'oval'") },
  { name: 'items: an enum object', path: '/q/items-enum?v=1', lenient: value(1) },
  { name: 'unknown: raw text', path: '/q/unknown?v=a&v=b', lenient: value(['a', 'b']) },
  { name: 'two parameters', path: '/q/two?a=1&b=x', lenient: answer({ a: 1, b: 'x' }) },
  // route parameters
  { name: 'param number converts', path: '/p/n/12', lenient: value(12) },
  { name: 'param number that fails', path: '/p/n/twelve', lenient: value('NaN'), strict: bad("Parameter 'id' expected number, got 'twelve'") },
  { name: 'param string is percent-decoded', path: '/p/s/a%20b', lenient: value('a b') },
  { name: 'param Date that fails', path: '/p/d/never', lenient: value('Invalid Date'), strict: bad("Parameter 'when' expected valid date, got 'never'") },
  { name: 'param enum that fails', path: '/p/e/none', lenient: value(null), strict: bad("Parameter 'sort' expected one of [asc, desc], got 'none'") },
  // headers
  { name: 'header string (case-insensitive name)', path: '/h/string', init: { headers: { 'x-name': '@kiln/core' } }, lenient: value('@kiln/core') },
  { name: 'header number converts', path: '/h/number', init: { headers: { 'x-count': '5' } }, lenient: value(5) },
  { name: 'header number that fails', path: '/h/number', init: { headers: { 'x-count': 'five' } }, lenient: value('NaN'), strict: bad("Parameter 'x-count' expected number, got 'five'") },
  { name: 'header absent required', path: '/h/required', lenient: value('(undefined)'), strict: bad("Parameter 'x-count' is required") },
  { name: 'header boolean', path: '/h/boolean', init: { headers: { 'x-flag': '1' } }, lenient: value(true) },
  { name: 'header number[] splits on commas and trims', path: '/h/numbers', init: { headers: { 'x-ids': '1, 2,3' } }, lenient: value([1, 2, 3]) },
  { name: 'header number[] item that fails names its index', path: '/h/numbers', init: { headers: { 'x-ids': '1, x' } }, lenient: value([1, 'NaN']), strict: bad("Parameter 'x-ids[1]' expected number, got 'x'") },
  { name: 'header string[]', path: '/h/strings', init: { headers: { 'x-tags': 'a , b' } }, lenient: value(['a', 'b']) },
  { name: 'header string[]: absent is []', path: '/h/strings', lenient: value([]) },
  { name: 'header Date[] item that fails', path: '/h/dates', init: { headers: { 'x-days': '2024-01-02, later' } }, lenient: value([day, 'Invalid Date']), strict: bad("Parameter 'x-days[1]' expected valid date, got 'later'") },
  // body
  { name: '@Body(): the parsed JSON body', path: '/b/whole', init: jsonBody('{"name":"Ada"}'), lenient: value({ name: 'Ada' }) },
  { name: '@Body(): invalid JSON', path: '/b/whole', init: jsonBody('{"name":'), lenient: value('(undefined)'), strict: bad(`Failed to parse JSON body: ${jsonError('{"name":')}`) },
  { name: '@Body(): absent optional body', path: '/b/whole', init: { method: 'POST' }, lenient: value('(undefined)') },
  { name: '@Body(): absent required body', path: '/b/required', init: { method: 'POST' }, lenient: value('(undefined)'), strict: bad('Request body is required') },
  { name: "@Body('name'): one field", path: '/b/field', init: jsonBody('{"name":"Ada","age":3}'), lenient: value('Ada') },
  { name: "@Body('name'): invalid JSON", path: '/b/field', init: jsonBody('nope'), lenient: value('(undefined)'), strict: bad(`Failed to parse JSON body: ${jsonError('nope')}`) },
  { name: "@Body('name'): absent required field", path: '/b/required-field', init: jsonBody('{}'), lenient: value('(undefined)'), strict: bad("Parameter 'name' is required") },
  { name: "@Body('name'): urlencoded form field", path: '/b/field', init: { method: 'POST', body: 'name=Bo', headers: { 'content-type': 'application/x-www-form-urlencoded' } }, lenient: value('Bo') },
  { name: '@Body: unsupported Content-Type is 415 in both modes', path: '/b/whole', init: { method: 'POST', body: '<a/>', headers: { 'content-type': 'application/xml' } }, lenient: { status: 415, message: "Unsupported Content-Type 'application/xml': a @Body parameter reads JSON, urlencoded forms and text/*" } },
  // request and custom decorators
  { name: '@Req(): the request', path: '/r/req', lenient: answer({ method: 'GET', path: '/r/req' }) },
  { name: 'custom decorator from another file: req.path', path: '/r/path', lenient: value('/r/path') },
  { name: 'renamed re-export of @Query', path: '/r/alias?v=8', lenient: value(8) },
  // a route inherited from a base class
  { name: 'inherited route binds through the subclass controller', path: '/inherited/5', lenient: value(5) },
  { name: 'inherited route conversion that fails', path: '/inherited/five', lenient: value('NaN'), strict: bad("Parameter 'id' expected number, got 'five'") },
  // class middleware use()
  { name: 'middleware use(): header bound', path: '/m?n=1', init: { headers: { 'x-token': 'secret' } }, lenient: value(1) },
  { name: 'middleware use(): its HttpError answers', path: '/m', lenient: { status: 401, message: 'Bad token for /m' } },
];

let lenient: Started;
let strict: Started;

test.before(async () => {
  lenient = await start({ controllers: conversionControllers });
  strict = await start({ controllers: conversionControllers, strictValidation: true });
});
test.after(async () => {
  await lenient.close();
  await strict.close();
});

function check(reply: Reply, expected: Outcome, where: string): void {
  assert.is(reply.status, expected.status, `${where}: status (body ${reply.text})`);
  if ('message' in expected) assert.is(reply.json().message, expected.message, where);
  else if ('json' in expected) assert.equal(reply.json(), expected.json, where);
  else assert.equal(reply.json().value, expected.value, where);
}

for (const c of cases) {
  for (const mode of ['lenient', 'strict'] as const) {
    const expected = mode === 'strict' ? (c.strict ?? c.lenient) : c.lenient;
    const label = 'message' in expected ? `answers ${expected.status}` : 'binds';
    test(`${mode}: ${c.name} ${label}`, async () => {
      const server = mode === 'strict' ? strict : lenient;
      for (const [transport, reply] of [
        ['http', await request(server.base, c.path, c.init)],
        ['fetch', await requestInProcess(server.app, c.path, c.init)],
      ] as const) {
        check(reply, expected, `${transport} ${c.path}`);
      }
    });
  }
}

test('custom @Ip() decorator: the socket address over HTTP, undefined in process', async () => {
  assert.equal((await request(lenient.base, '/r/ip')).json(), { value: '127.0.0.1' });
  assert.equal((await request(lenient.base, '/r/ip', { headers: { 'x-forwarded-for': '10.0.0.1, 10.0.0.2' } })).json(), { value: '10.0.0.1' });
  assert.equal((await requestInProcess(lenient.app, '/r/ip')).json(), { value: '(undefined)' });
});

test('@Body parameters and a query parameter share one binder, reading the body once', async () => {
  const reply = await request(strict.base, '/b/both?n=2', jsonBody('{"name":"Ada"}'));
  assert.equal(reply.json(), { body: { name: 'Ada' }, name: 'Ada', n: 2 });
});

test.run();
