// Every row of the conversion table, in both modes, over a real socket and through app.fetch.
// The controllers are compiled by the real plugin (test/tsconfig.json).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { start, request, requestInProcess, type Reply, type Started } from '../support/server.js';
import { conversionControllers } from './support/conversion-controllers.js';

type Outcome =
  | { status: 200; value: unknown }
  | { status: number; message: string }
  | { status: 200; json: unknown }
  | { status: number; startsWith: string };
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
const form = (text: string): RequestInit => ({
  method: 'POST',
  body: text,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});
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
  {
    name: 'Date that fails',
    path: '/q/date?v=someday',
    lenient: value('Invalid Date'),
    strict: bad("Parameter 'v' expected valid date, got 'someday'"),
  },
  // object (JSON)
  { name: 'object from JSON text', path: `/q/object?v=${encodeURIComponent('{"a":1}')}`, lenient: value({ a: 1 }) },
  {
    name: 'object that fails',
    path: `/q/object?v=${encodeURIComponent('{a:1')}`,
    lenient: value(null),
    strict: bad("Parameter 'v' expected valid JSON, got '{a:1'"),
  },
  // string[]
  { name: 'string[]: each occurrence', path: '/q/strings?v=a&v=b&v=c', lenient: value(['a', 'b', 'c']) },
  { name: 'string[]: one occurrence', path: '/q/strings?v=a', lenient: value(['a']) },
  { name: 'string[]: absent is []', path: '/q/strings', lenient: value([]) },
  // number[], boolean[], Date[]
  { name: 'number[] converts each item', path: '/q/numbers?v=1&v=2.5', lenient: value([1, 2.5]) },
  {
    name: 'number[] item that fails names its index',
    path: '/q/numbers?v=1&v=x&v=3',
    lenient: value([1, 'NaN', 3]),
    strict: bad("Parameter 'v[1]' expected number, got 'x'"),
  },
  { name: 'number[]: absent is []', path: '/q/numbers', lenient: value([]) },
  { name: 'boolean[] converts each item', path: '/q/booleans?v=true&v=0&v=1', lenient: value([true, false, true]) },
  { name: 'Date[] converts each item', path: '/q/dates?v=2024-01-02', lenient: value([day]) },
  {
    name: 'Date[] item that fails names its index',
    path: '/q/dates?v=x',
    lenient: value(['Invalid Date']),
    strict: bad("Parameter 'v[0]' expected valid date, got 'x'"),
  },
  {
    name: 'object[] parses each item',
    path: `/q/objects?v=${encodeURIComponent('{"a":1}')}&v=nope`,
    lenient: value([{ a: 1 }, null]),
    strict: bad("Parameter 'v[1]' expected valid JSON, got 'nope'"),
  },
  // enums and literal unions
  { name: 'string enum: allowed value', path: '/q/string-enum?v=desc', lenient: value('desc') },
  {
    name: 'string enum: other value',
    path: '/q/string-enum?v=up',
    lenient: value(null),
    strict: bad("Parameter 'v' expected one of [asc, desc], got 'up'"),
  },
  { name: 'numeric enum: numeric text becomes its number', path: '/q/numeric-enum?v=2', lenient: value(2) },
  {
    name: 'numeric enum: other value',
    path: '/q/numeric-enum?v=7',
    lenient: value(null),
    strict: bad("Parameter 'v' expected one of [0, 1, 2], got '7'"),
  },
  {
    name: 'numeric enum: member name is not a value',
    path: '/q/numeric-enum?v=High',
    lenient: value(null),
    strict: bad("Parameter 'v' expected one of [0, 1, 2], got 'High'"),
  },
  { name: 'string literal union', path: '/q/string-union?v=b', lenient: value('b') },
  {
    name: 'string literal union: other value',
    path: '/q/string-union?v=d',
    lenient: value(null),
    strict: bad("Parameter 'v' expected one of [a, b, c], got 'd'"),
  },
  { name: 'number literal union', path: '/q/number-union?v=20', lenient: value(20) },
  {
    name: 'number literal union: other value',
    path: '/q/number-union?v=30',
    lenient: value(null),
    strict: bad("Parameter 'v' expected one of [10, 20], got '30'"),
  },
  {
    name: 'enum[] checks each item',
    path: '/q/enum-array?v=asc&v=sideways',
    lenient: value(['asc', null]),
    strict: bad("Parameter 'v[1]' expected one of [asc, desc], got 'sideways'"),
  },
  // the items argument
  {
    name: 'items [Number] on an unknown parameter',
    path: '/q/items-number?v=1&v=x',
    lenient: value([1, 'NaN']),
    strict: bad("Parameter 'v[1]' expected number, got 'x'"),
  },
  { name: 'items [Date] agreeing with Date[]', path: '/q/items-date?v=2024-01-02', lenient: value([day]) },
  {
    name: 'items: allowed values narrow a string',
    path: '/q/items-values?v=z',
    lenient: value(null),
    strict: bad("Parameter 'v' expected one of [x, y], got 'z'"),
  },
  { name: 'items: allowed values, allowed', path: '/q/items-values?v=y', lenient: value('y') },
  {
    name: 'items: an as-const array of values',
    path: '/q/items-const?v=oval',
    lenient: value(null),
    strict: bad("Parameter 'v' expected one of [circle, square], got 'oval'"),
  },
  { name: 'items: an enum object', path: '/q/items-enum?v=1', lenient: value(1) },
  { name: 'unknown: raw text', path: '/q/unknown?v=a&v=b', lenient: value(['a', 'b']) },
  { name: 'two parameters', path: '/q/two?a=1&b=x', lenient: answer({ a: 1, b: 'x' }) },
  // route parameters
  { name: 'param number converts', path: '/p/n/12', lenient: value(12) },
  {
    name: 'param number that fails',
    path: '/p/n/twelve',
    lenient: value('NaN'),
    strict: bad("Parameter 'id' expected number, got 'twelve'"),
  },
  { name: 'param string is percent-decoded', path: '/p/s/a%20b', lenient: value('a b') },
  {
    name: 'param Date that fails',
    path: '/p/d/never',
    lenient: value('Invalid Date'),
    strict: bad("Parameter 'when' expected valid date, got 'never'"),
  },
  {
    name: 'param enum that fails',
    path: '/p/e/none',
    lenient: value(null),
    strict: bad("Parameter 'sort' expected one of [asc, desc], got 'none'"),
  },
  // headers
  {
    name: 'header string (case-insensitive name)',
    path: '/h/string',
    init: { headers: { 'x-name': '@kiln/core' } },
    lenient: value('@kiln/core'),
  },
  { name: 'header number converts', path: '/h/number', init: { headers: { 'x-count': '5' } }, lenient: value(5) },
  {
    name: 'header number that fails',
    path: '/h/number',
    init: { headers: { 'x-count': 'five' } },
    lenient: value('NaN'),
    strict: bad("Parameter 'x-count' expected number, got 'five'"),
  },
  { name: 'header absent required', path: '/h/required', lenient: value('(undefined)'), strict: bad("Parameter 'x-count' is required") },
  { name: 'header boolean', path: '/h/boolean', init: { headers: { 'x-flag': '1' } }, lenient: value(true) },
  {
    name: 'header number[] splits on commas and trims',
    path: '/h/numbers',
    init: { headers: { 'x-ids': '1, 2,3' } },
    lenient: value([1, 2, 3]),
  },
  {
    name: 'header number[] item that fails names its index',
    path: '/h/numbers',
    init: { headers: { 'x-ids': '1, x' } },
    lenient: value([1, 'NaN']),
    strict: bad("Parameter 'x-ids[1]' expected number, got 'x'"),
  },
  { name: 'header string[]', path: '/h/strings', init: { headers: { 'x-tags': 'a , b' } }, lenient: value(['a', 'b']) },
  { name: 'header string[]: absent is []', path: '/h/strings', lenient: value([]) },
  {
    name: 'header Date[] item that fails',
    path: '/h/dates',
    init: { headers: { 'x-days': '2024-01-02, later' } },
    lenient: value([day, 'Invalid Date']),
    strict: bad("Parameter 'x-days[1]' expected valid date, got 'later'"),
  },
  // body
  { name: '@Body(): the parsed JSON body', path: '/b/whole', init: jsonBody('{"name":"Ada"}'), lenient: value({ name: 'Ada' }) },
  {
    name: '@Body(): invalid JSON',
    path: '/b/whole',
    init: jsonBody('{"name":'),
    lenient: value('(undefined)'),
    strict: bad(`Failed to parse JSON body: ${jsonError('{"name":')}`),
  },
  { name: '@Body(): absent optional body', path: '/b/whole', init: { method: 'POST' }, lenient: value('(undefined)') },
  {
    name: '@Body(): absent required body',
    path: '/b/required',
    init: { method: 'POST' },
    lenient: value('(undefined)'),
    strict: bad('Request body is required'),
  },
  { name: "@Body('name'): one field", path: '/b/field', init: jsonBody('{"name":"Ada","age":3}'), lenient: value('Ada') },
  {
    name: "@Body('name'): invalid JSON",
    path: '/b/field',
    init: jsonBody('nope'),
    lenient: value('(undefined)'),
    strict: bad(`Failed to parse JSON body: ${jsonError('nope')}`),
  },
  {
    name: "@Body('name'): absent required field",
    path: '/b/required-field',
    init: jsonBody('{}'),
    lenient: value('(undefined)'),
    strict: bad("Parameter 'name' is required"),
  },
  {
    name: "@Body('name'): urlencoded form field",
    path: '/b/field',
    init: { method: 'POST', body: 'name=Bo', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    lenient: value('Bo'),
  },
  {
    name: '@Body: unsupported Content-Type is 415 in both modes',
    path: '/b/whole',
    init: { method: 'POST', body: '<a/>', headers: { 'content-type': 'application/xml' } },
    lenient: {
      status: 415,
      message: "Unsupported Content-Type 'application/xml': a @Body parameter reads JSON, urlencoded forms and text/*",
    },
  },
  // scalar body fields: Kiln's own rules, no typia (a JSON value checked as it is; form text converted like a query parameter)
  { name: "@Body('n') number: a JSON number", path: '/b/number', init: jsonBody('{"n":5}'), lenient: value(5) },
  {
    name: "@Body('n') number: a JSON string is not converted",
    path: '/b/number',
    init: jsonBody('{"n":"5"}'),
    lenient: value('5'),
    strict: bad('Parameter \'n\' expected number, got "5"'),
  },
  { name: "@Body('n') number: a form field is converted", path: '/b/number', init: form('n=5'), lenient: value(5) },
  {
    name: "@Body('n') number: a form field that fails",
    path: '/b/number',
    init: form('n=x'),
    lenient: value('NaN'),
    strict: bad("Parameter 'n' expected number, got 'x'"),
  },
  { name: "@Body('on') boolean: a JSON boolean", path: '/b/boolean', init: jsonBody('{"on":false}'), lenient: value(false) },
  {
    name: "@Body('on') boolean: a JSON string",
    path: '/b/boolean',
    init: jsonBody('{"on":"yes"}'),
    lenient: value('yes'),
    strict: bad('Parameter \'on\' expected boolean, got "yes"'),
  },
  { name: "@Body('on') boolean: a form field", path: '/b/boolean', init: form('on=1'), lenient: value(true) },
  { name: "@Body('sort') enum: an allowed JSON value", path: '/b/enum', init: jsonBody('{"sort":"desc"}'), lenient: value('desc') },
  {
    name: "@Body('sort') enum: another JSON value",
    path: '/b/enum',
    init: jsonBody('{"sort":"up"}'),
    lenient: value('up'),
    strict: bad('Parameter \'sort\' expected one of [asc, desc], got "up"'),
  },
  {
    name: "@Body('sort') enum: a form field that fails",
    path: '/b/enum',
    init: form('sort=up'),
    lenient: value(null),
    strict: bad("Parameter 'sort' expected one of [asc, desc], got 'up'"),
  },
  { name: "@Body('size') literal union: an allowed JSON value", path: '/b/union', init: jsonBody('{"size":"M"}'), lenient: value('M') },
  {
    name: "@Body('size') literal union: a JSON number",
    path: '/b/union',
    init: jsonBody('{"size":1}'),
    lenient: value(1),
    strict: bad("Parameter 'size' expected one of [S, M], got 1"),
  },
  {
    name: "@Body('name') string: a JSON number",
    path: '/b/field',
    init: jsonBody('{"name":5}'),
    lenient: value(5),
    strict: bad("Parameter 'name' expected string, got 5"),
  },
  { name: "@Body('name') string: a repeated form key gives the first", path: '/b/field', init: form('name=a&name=b'), lenient: value('a') },
  {
    name: '@Body() string: a text/plain body',
    path: '/b/text',
    init: { method: 'POST', body: 'hello', headers: { 'content-type': 'text/plain' } },
    lenient: value('hello'),
  },
  {
    name: '@Body() string: a JSON number',
    path: '/b/text',
    init: jsonBody('5'),
    lenient: value(5),
    strict: bad('Request body expected string, got 5'),
  },
  // request and custom decorators
  { name: '@Req(): the request', path: '/r/req', lenient: answer({ method: 'GET', path: '/r/req' }) },
  { name: 'custom decorator from another file: req.path', path: '/r/path', lenient: value('/r/path') },
  { name: 'renamed re-export of @Query', path: '/r/alias?v=8', lenient: value(8) },
  // a route inherited from a base class
  { name: 'inherited route binds through the subclass controller', path: '/inherited/5', lenient: value(5) },
  {
    name: 'inherited route conversion that fails',
    path: '/inherited/five',
    lenient: value('NaN'),
    strict: bad("Parameter 'id' expected number, got 'five'"),
  },
  // class middleware use()
  { name: 'middleware use(): header bound', path: '/m?n=1', init: { headers: { 'x-token': 'secret' } }, lenient: value(1) },
  { name: 'middleware use(): its HttpError answers', path: '/m', lenient: { status: 401, message: 'Bad token for /m' } },
  // typia tags on scalars: converted as the base type, then checked under strictValidation (the converted value passes without it)
  { name: 'tagged uint32 in range', path: '/t/uint32?v=5', lenient: value(5) },
  {
    name: 'tagged uint32 below zero',
    path: '/t/uint32?v=-1',
    lenient: value(-1),
    strict: bad("Parameter 'v' expected number & Type<\"uint32\">, got '-1'"),
  },
  {
    name: 'tagged uint32: a fraction',
    path: '/t/uint32?v=1.5',
    lenient: value(1.5),
    strict: bad("Parameter 'v' expected number & Type<\"uint32\">, got '1.5'"),
  },
  {
    name: 'tagged number: conversion fails first',
    path: '/t/uint32?v=x',
    lenient: value('NaN'),
    strict: bad("Parameter 'v' expected number, got 'x'"),
  },
  { name: 'tagged number: absent optional is undefined', path: '/t/uint32', lenient: value('(undefined)') },
  { name: 'Minimum & Maximum: within', path: '/t/range?limit=100', lenient: value(100) },
  {
    name: 'Maximum exceeded',
    path: '/t/range?limit=500',
    lenient: value(500),
    strict: bad("Parameter 'limit' expected number & Maximum<100>, got '500'"),
  },
  {
    name: 'Minimum not reached',
    path: '/t/range?limit=0',
    lenient: value(0),
    strict: bad("Parameter 'limit' expected number & Minimum<1>, got '0'"),
  },
  { name: 'Format<email>: an address', path: '/t/email?v=a%40b.com', lenient: value('a@b.com') },
  {
    name: 'Format<email>: not an address',
    path: '/t/email?v=zzz',
    lenient: value('zzz'),
    strict: bad("Parameter 'v' expected string & Format<\"email\">, got 'zzz'"),
  },
  {
    name: 'Format<email>: text is not JSON-parsed',
    path: '/t/email?v=%22x%40y.z%22',
    lenient: value('"x@y.z"'),
    strict: bad('Parameter \'v\' expected string & Format<"email">, got \'"x@y.z"\''),
  },
  {
    name: 'Format<uuid>: a uuid',
    path: '/t/uuid?v=0b5f3a4e-6a0c-4d0e-9c4b-2f4f7a1e9d3c',
    lenient: value('0b5f3a4e-6a0c-4d0e-9c4b-2f4f7a1e9d3c'),
  },
  {
    name: 'Format<uuid>: not a uuid',
    path: '/t/uuid?v=1234',
    lenient: value('1234'),
    strict: bad("Parameter 'v' expected string & Format<\"uuid\">, got '1234'"),
  },
  { name: 'MinLength & Pattern: both hold', path: '/t/code?v=ABC', lenient: value('ABC') },
  {
    name: 'MinLength & Pattern: one fails',
    path: '/t/code?v=abcd',
    lenient: value('abcd'),
    strict: bad("Parameter 'v' expected string & Pattern<\"^[A-Z]+$\">, got 'abcd'"),
  },
  {
    name: 'MinLength & Pattern: both fail, the first is named',
    path: '/t/code?v=ab',
    lenient: value('ab'),
    strict: bad("Parameter 'v' expected string & MinLength<3>, got 'ab'"),
  },
  { name: 'tagged: absent required', path: '/t/required', lenient: value('(undefined)'), strict: bad("Parameter 'v' is required") },
  { name: 'tagged array items: all int32', path: '/t/int32s?v=1&v=-2', lenient: value([1, -2]) },
  {
    name: 'tagged array item that fails names its index',
    path: '/t/int32s?v=1&v=2.5',
    lenient: value([1, 2.5]),
    strict: bad("Parameter 'v[1]' expected number & Type<\"int32\">, got '2.5'"),
  },
  {
    name: 'tagged array item: conversion fails first',
    path: '/t/int32s?v=x',
    lenient: value(['NaN']),
    strict: bad("Parameter 'v[0]' expected number, got 'x'"),
  },
  {
    name: 'tagged header items',
    path: '/t/emails',
    init: { headers: { 'x-emails': 'a@b.com, c@d.org' } },
    lenient: value(['a@b.com', 'c@d.org']),
  },
  {
    name: 'tagged header item that fails',
    path: '/t/emails',
    init: { headers: { 'x-emails': 'a@b.com, nope' } },
    lenient: value(['a@b.com', 'nope']),
    strict: bad("Parameter 'x-emails[1]' expected string & Format<\"email\">, got 'nope'"),
  },
  { name: 'tagged route parameter', path: '/t/p/7', lenient: value(7) },
  {
    name: 'tagged route parameter that fails',
    path: '/t/p/-7',
    lenient: value(-7),
    strict: bad("Parameter 'id' expected number & Type<\"uint32\">, got '-7'"),
  },
  { name: 'tagged header', path: '/t/header', init: { headers: { 'x-limit': '9.5' } }, lenient: value(9.5) },
  {
    name: 'tagged header that fails',
    path: '/t/header',
    init: { headers: { 'x-limit': '10' } },
    lenient: value(10),
    strict: bad("Parameter 'x-limit' expected number & ExclusiveMaximum<10>, got '10'"),
  },
  // object and tuple parameters: JSON text parsed, then checked against the type (null on failure without strictValidation)
  {
    name: 'object parameter of its type',
    path: `/o/filter?filter=${encodeURIComponent('{"age":3,"name":"Ada"}')}`,
    lenient: value({ age: 3, name: 'Ada' }),
  },
  {
    name: 'object parameter: a property of the wrong type',
    path: `/o/filter?filter=${encodeURIComponent('{"age":"x"}')}`,
    lenient: value(null),
    strict: bad('Invalid parameter \'filter\': filter.age expected number, got "x"'),
  },
  {
    name: 'object parameter: a number',
    path: '/o/filter?filter=5',
    lenient: value(null),
    strict: bad("Invalid parameter 'filter': filter expected Filter, got 5"),
  },
  {
    name: 'object parameter: a string',
    path: `/o/filter?filter=${encodeURIComponent('"str"')}`,
    lenient: value(null),
    strict: bad('Invalid parameter \'filter\': filter expected Filter, got "str"'),
  },
  {
    name: 'object parameter: an array',
    path: `/o/filter?filter=${encodeURIComponent('[]')}`,
    lenient: value(null),
    strict: bad("Invalid parameter 'filter': filter.age expected number, got undefined"),
  },
  {
    name: 'object parameter: JSON null',
    path: '/o/filter?filter=null',
    lenient: value(null),
    strict: bad("Invalid parameter 'filter': filter expected Filter, got null"),
  },
  {
    name: 'object parameter: an extra property',
    path: `/o/filter?filter=${encodeURIComponent('{"age":3,"admin":true}')}`,
    lenient: value(null),
    strict: bad("Invalid parameter 'filter': filter.admin expected undefined, got true"),
  },
  {
    name: 'object parameter: every failing path',
    path: `/o/filter?filter=${encodeURIComponent('{"name":1}')}`,
    lenient: value(null),
    strict: bad("Invalid parameter 'filter': filter.age expected number, got undefined; filter.name expected (string | undefined), got 1"),
  },
  {
    name: 'object parameter: not JSON',
    path: `/o/filter?filter=${encodeURIComponent('{age')}`,
    lenient: value(null),
    strict: bad("Parameter 'filter' expected valid JSON, got '{age'"),
  },
  { name: 'object parameter: absent optional', path: '/o/filter', lenient: value('(undefined)') },
  {
    name: 'object parameter: absent required',
    path: '/o/required',
    lenient: value('(undefined)'),
    strict: bad("Parameter 'filter' is required"),
  },
  { name: 'tuple parameter', path: `/o/tuple?t=${encodeURIComponent('[1,"a"]')}`, lenient: value([1, 'a']) },
  {
    name: 'tuple parameter of the wrong shape',
    path: `/o/tuple?t=${encodeURIComponent('["a",1]')}`,
    lenient: value(null),
    strict: bad('Invalid parameter \'t\': t[0] expected number, got "a"; t[1] expected string, got 1'),
  },
  {
    name: 'tuple parameter too long',
    path: `/o/tuple?t=${encodeURIComponent('[1,"a",2]')}`,
    lenient: value(null),
    strict: bad('Invalid parameter \'t\': t expected [number, string], got [1,"a",2]'),
  },
  {
    name: 'object header',
    path: '/o/meta',
    init: { headers: { 'x-meta': '{"kind":"a","size":2}' } },
    lenient: value({ kind: 'a', size: 2 }),
  },
  {
    name: 'object header of the wrong shape',
    path: '/o/meta',
    init: { headers: { 'x-meta': '{"kind":"c","size":2}' } },
    lenient: value(null),
    strict: bad('Invalid parameter \'x-meta\': x-meta.kind expected ("a" | "b"), got "c"'),
  },
  {
    name: 'object array: each item checked',
    path: `/o/filters?f=${encodeURIComponent('{"age":1}')}&f=${encodeURIComponent('{"age":"x"}')}`,
    lenient: value([{ age: 1 }, null]),
    strict: bad('Invalid parameter \'f[1]\': f[1].age expected number, got "x"'),
  },
  { name: 'Record parameter', path: `/o/record?r=${encodeURIComponent('{"a":1}')}`, lenient: value({ a: 1 }) },
  {
    name: 'Record parameter of the wrong shape',
    path: `/o/record?r=${encodeURIComponent('{"a":"1"}')}`,
    lenient: value(null),
    strict: bad('Invalid parameter \'r\': r.a expected number, got "1"'),
  },
  {
    name: "object parameter: failures bounded as a body's (ten listed, the rest counted)",
    path: `/o/wide?w=${encodeURIComponent('{}')}`,
    lenient: value(null),
    strict: {
      status: 400,
      startsWith: `Invalid parameter 'w': ${[...'abcdefghij'].map((k) => `w.${k} expected number, got undefined`).join('; ')}; and 2 more`,
    },
  },
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
  else if ('startsWith' in expected) assert.ok(String(reply.json().message).startsWith(expected.startsWith), `${where}: ${reply.text}`);
  else if ('json' in expected) assert.equal(reply.json(), expected.json, where);
  else assert.equal(reply.json().value, expected.value, where);
}

for (const c of cases) {
  for (const mode of ['lenient', 'strict'] as const) {
    const expected = mode === 'strict' ? (c.strict ?? c.lenient) : c.lenient;
    const label = expected.status !== 200 ? `answers ${expected.status}` : 'binds';
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
  assert.equal((await request(lenient.base, '/r/ip', { headers: { 'x-forwarded-for': '10.0.0.1, 10.0.0.2' } })).json(), {
    value: '10.0.0.1',
  });
  assert.equal((await requestInProcess(lenient.app, '/r/ip')).json(), { value: '(undefined)' });
});

test('@Body parameters and a query parameter share one binder, reading the body once', async () => {
  const reply = await request(strict.base, '/b/both?n=2', jsonBody('{"name":"Ada"}'));
  assert.equal(reply.json(), { body: { name: 'Ada' }, name: 'Ada', n: 2 });
});

test.run();
