// One app, every runtime: the conformance app (routing, the conversion table in both modes, typed
// bodies and responses, errors and their bodies, middlewares, CORS, injection, a MemoryStore rate
// limit, the served OpenAPI document) bundled by esbuild and served over real HTTP on 127.0.0.1 by
// Node 20, Node 26, Bun, Deno and workerd. Each case's answer is checked on every runtime, and
// every runtime's answers must equal Node 20's, but for the differences docs/guide/runtimes.md lists.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer as createHttpServer } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { bundleEntries, root, serveOn, type Mode, type RuntimeName, type ServedRuntime } from './support/served-runtimes.js';

interface Expected {
  status: number;
  json?: unknown;
  text?: string;
  /** Header values the answer must have; `null`: must not have. */
  headers?: Record<string, string | null>;
}

interface Case {
  name: string;
  mode: Mode;
  path: string;
  init?: RequestInit;
  expect: Expected;
  /** The message's detail is the JavaScript engine's own words (a JSON.parse error): V8's and JavaScriptCore's differ. */
  engineWorded?: true;
}

const json = (body: unknown, method = 'POST', headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
const jsonType = 'application/json; charset=utf-8';
const problemType = 'application/problem+json';

const cases: Case[] = [
  // routing
  {
    name: 'a static route answers 200 JSON',
    mode: 'strict',
    path: '/books/greeting',
    expect: { status: 200, json: { greeting: 'hello from the container' }, headers: { 'content-type': jsonType } },
  },
  {
    name: 'an unknown path answers 404 with the error body',
    mode: 'strict',
    path: '/nowhere',
    expect: { status: 404, json: { error: 'Not Found', message: 'No route for GET /nowhere' } },
  },
  {
    name: 'a wrong method answers 405 with Allow',
    mode: 'strict',
    path: '/books/greeting',
    init: { method: 'POST' },
    expect: {
      status: 405,
      json: { error: 'Method Not Allowed', message: 'Method POST is not allowed for /books/greeting' },
      headers: { allow: 'GET, HEAD, OPTIONS' },
    },
  },
  {
    name: 'HEAD is served by the GET route, without a body',
    mode: 'strict',
    path: '/books/1',
    init: { method: 'HEAD' },
    expect: { status: 200, text: '', headers: { 'content-type': jsonType } },
  },
  {
    name: 'a trailing slash finds the route',
    mode: 'strict',
    path: '/books/1/',
    expect: { status: 200, json: { id: 1, title: 'Dune', year: 1965 } },
  },
  {
    name: 'a percent-encoded path parameter is decoded',
    mode: 'loose',
    path: '/convert/params/%34%32/2024-02-29',
    expect: { status: 200, json: { n: 42, d: '2024-02-29T00:00:00.000Z' } },
  },

  // the conversion table, loose
  {
    name: 'loose: every scalar type converts',
    mode: 'loose',
    path: '/convert/scalars?s=text&b=true&n=1.5&d=2024-01-02&o=%7B%22a%22%3A1%7D&e=desc&l=2&u=y',
    expect: { status: 200, json: { s: 'text', b: true, n: 1.5, d: '2024-01-02T00:00:00.000Z', o: { a: 1 }, e: 'desc', l: 2, u: 'y' } },
  },
  {
    name: 'loose: missing values are undefined, a missing boolean false',
    mode: 'loose',
    path: '/convert/scalars',
    expect: {
      status: 200,
      json: { s: 'undefined', b: false, n: 'undefined', d: 'undefined', o: 'undefined', e: 'undefined', l: 'undefined', u: 'undefined' },
    },
  },
  {
    name: 'loose: failed conversions pass NaN, Invalid Date, null',
    mode: 'loose',
    path: '/convert/scalars?n=abc&d=never&o=%7Bbad&b=maybe',
    expect: {
      status: 200,
      json: { s: 'undefined', b: false, n: 'NaN', d: 'Invalid Date', o: null, e: 'undefined', l: 'undefined', u: 'undefined' },
    },
  },
  {
    name: 'loose: arrays from repeated keys',
    mode: 'loose',
    path: '/convert/arrays?ss=a&ss=b&ns=1&ns=x&bs=true&bs=0&ds=2020-01-01',
    expect: { status: 200, json: { ss: ['a', 'b'], ns: [1, 'NaN'], bs: [true, false], ds: ['2020-01-01T00:00:00.000Z'] } },
  },
  {
    name: 'loose: a missing array is empty',
    mode: 'loose',
    path: '/convert/arrays',
    expect: { status: 200, json: { ss: [], ns: [], bs: [], ds: [] } },
  },
  {
    name: 'loose: a missing required number passes as undefined, the default applies',
    mode: 'loose',
    path: '/convert/required',
    expect: { status: 200, json: { page: 'undefined', size: 20 } },
  },
  {
    name: 'loose: header values convert, repeated ones split on commas',
    mode: 'loose',
    path: '/convert/headers',
    init: { headers: { 'x-count': '7', 'x-ids': '1, 2,3', 'x-flag': 'true' } },
    expect: { status: 200, json: { count: 7, ids: [1, 2, 3], flag: true } },
  },

  // the conversion table, strict
  {
    name: 'strict: every scalar type converts',
    mode: 'strict',
    path: '/convert/scalars?s=text&b=false&n=-3&d=2024-01-02T03:04:05Z&o=%7B%22a%22%3A2%7D&e=asc&l=0&u=x',
    expect: { status: 200, json: { s: 'text', b: false, n: -3, d: '2024-01-02T03:04:05.000Z', o: { a: 2 }, e: 'asc', l: 0, u: 'x' } },
  },
  {
    name: 'strict: a number that fails answers 400',
    mode: 'strict',
    path: '/convert/scalars?n=abc',
    expect: { status: 400, json: { error: 'Bad Request', message: "Parameter 'n' expected number, got 'abc'" } },
  },
  {
    name: 'strict: a date that fails answers 400',
    mode: 'strict',
    path: '/convert/scalars?d=never',
    expect: { status: 400, json: { error: 'Bad Request', message: "Parameter 'd' expected valid date, got 'never'" } },
  },
  {
    name: 'strict: a boolean is true for true or 1 only, never a failure',
    mode: 'strict',
    path: '/convert/scalars?b=maybe',
    expect: {
      status: 200,
      json: { s: 'undefined', b: false, n: 'undefined', d: 'undefined', o: 'undefined', e: 'undefined', l: 'undefined', u: 'undefined' },
    },
  },
  {
    name: 'strict: JSON that fails answers 400',
    mode: 'strict',
    path: '/convert/scalars?o=%7Bbad',
    expect: { status: 400, json: { error: 'Bad Request', message: "Parameter 'o' expected valid JSON, got '{bad'" } },
  },
  {
    name: 'strict: an enum value outside answers 400',
    mode: 'strict',
    path: '/convert/scalars?e=up',
    expect: { status: 400, json: { error: 'Bad Request', message: "Parameter 'e' expected one of [asc, desc], got 'up'" } },
  },
  {
    name: 'strict: a literal union value outside answers 400',
    mode: 'strict',
    path: '/convert/scalars?u=z',
    expect: { status: 400, json: { error: 'Bad Request', message: "Parameter 'u' expected one of [x, y], got 'z'" } },
  },
  {
    name: 'strict: an array item that fails names its index',
    mode: 'strict',
    path: '/convert/arrays?ns=1&ns=x',
    expect: { status: 400, json: { error: 'Bad Request', message: "Parameter 'ns[1]' expected number, got 'x'" } },
  },
  {
    name: 'strict: a missing required value answers 400',
    mode: 'strict',
    path: '/convert/required',
    expect: { status: 400, json: { error: 'Bad Request', message: "Parameter 'page' is required" } },
  },
  {
    name: 'strict: a path parameter that fails answers 400',
    mode: 'strict',
    path: '/convert/params/x/2020-01-01',
    expect: { status: 400, json: { error: 'Bad Request', message: "Parameter 'n' expected number, got 'x'" } },
  },

  // typed bodies and responses
  {
    name: 'a typed response keeps only the declared properties',
    mode: 'loose',
    path: '/books/2',
    expect: { status: 200, json: { id: 2, title: 'Solaris', year: 1961 } },
  },
  {
    name: 'strict: a valid typed body answers 201',
    mode: 'strict',
    path: '/books',
    init: json({ title: 'Ubik', year: 1969, tags: ['sf'] }, 'POST', { 'x-api-key': 'let-me-in' }),
    expect: { status: 201, json: { id: 3, title: 'Ubik', year: 1969 } },
  },
  {
    name: 'strict: typia names every failing path',
    mode: 'strict',
    path: '/books',
    init: json({ title: '', year: -1, tags: 'sf', isbn: 'x' }, 'POST', { 'x-api-key': 'let-me-in' }),
    expect: {
      status: 400,
      json: {
        error: 'Bad Request',
        message:
          'Invalid request body: $input.title expected string & MinLength<1>, got ""; $input.year expected number & Type<"uint32">, got -1; $input.tags expected Array<string>, got "sf"; $input.isbn expected string & Pattern<"^[0-9-]{10,17}$">, got "x"',
        data: {
          errors: [
            { path: '$input.title', expected: 'string & MinLength<1>', value: '' },
            { path: '$input.year', expected: 'number & Type<"uint32">', value: -1 },
            { path: '$input.tags', expected: 'Array<string>', value: 'sf' },
            { path: '$input.isbn', expected: 'string & Pattern<"^[0-9-]{10,17}$">', value: 'x' },
          ],
        },
      },
    },
  },
  {
    name: 'loose: an unchecked body passes through',
    mode: 'loose',
    path: '/books',
    init: json({ title: '', year: -1 }, 'POST', { 'x-api-key': 'let-me-in' }),
    expect: { status: 201, json: { id: 3, title: '', year: -1 } },
  },
  {
    name: 'a body that is not JSON answers 400',
    mode: 'strict',
    path: '/books',
    init: { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'let-me-in' }, body: '{"title":' },
    expect: { status: 400, json: { error: 'Bad Request' } },
    engineWorded: true,
  },
  {
    name: 'a urlencoded form body binds field by field',
    mode: 'strict',
    path: '/books/form',
    init: { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'title=Ubik&year=1969' },
    expect: { status: 200, json: { title: 'Ubik', year: 1969 } },
  },
  {
    name: 'a text body binds as a string',
    mode: 'strict',
    path: '/books/1/note',
    init: { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'worth reading' },
    expect: { status: 200, json: { id: 1, note: 'worth reading' } },
  },
  {
    name: 'an unsupported body type answers 415',
    mode: 'strict',
    path: '/books/1/note',
    init: { method: 'PUT', headers: { 'content-type': 'image/png' }, body: 'x' },
    expect: {
      status: 415,
      json: {
        error: 'Unsupported Media Type',
        message: "Unsupported Content-Type 'image/png': a @Body parameter reads JSON, urlencoded forms and text/*",
      },
    },
  },
  {
    name: 'a body over maxBodySize answers 413',
    mode: 'strict',
    path: '/books/1/note',
    init: { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(2048) },
    expect: { status: 413, json: { error: 'Payload Too Large', message: 'Request body is larger than the limit of 1024 bytes' } },
  },

  // errors and their bodies
  {
    name: 'an HttpError answers its status, message and data',
    mode: 'strict',
    path: '/books/9',
    expect: { status: 404, json: { error: 'Not Found', message: 'No book 9', data: { id: 9 } } },
  },
  {
    name: 'any other error answers a bare 500',
    mode: 'strict',
    path: '/books/fail/plain',
    expect: { status: 500, json: { error: 'Internal Server Error', message: 'Internal Server Error' } },
  },
  {
    name: 'a void handler answers 204 without a body',
    mode: 'strict',
    path: '/books/1',
    init: { method: 'DELETE' },
    expect: { status: 204, text: '' },
  },
  {
    name: 'an HttpError of a void handler keeps its status',
    mode: 'strict',
    path: '/books/0',
    init: { method: 'DELETE' },
    expect: { status: 409, json: { error: 'Conflict', message: 'Book 0 cannot be removed' } },
  },
  {
    name: 'a returned Response is sent as built',
    mode: 'strict',
    path: '/books/raw/response',
    expect: { status: 202, text: 'made by hand', headers: { 'content-type': 'text/plain; charset=utf-8', 'x-made': 'by-hand' } },
  },

  {
    name: "Kiln's Response is sent with its body",
    mode: 'strict',
    path: '/books/raw/kiln',
    expect: { status: 203, text: 'kept by Kiln', headers: { 'content-type': 'text/plain; charset=utf-8' } },
  },
  {
    name: "Kiln's Response.json is sent with its body",
    mode: 'strict',
    path: '/books/raw/kiln-json',
    expect: { status: 200, json: { kept: true }, headers: { 'content-type': 'application/json' } },
  },

  {
    name: 'compression() gzips an answer the client accepts gzip for',
    mode: 'strict',
    path: '/books/compressed/list',
    init: { headers: { 'accept-encoding': 'gzip' } },
    expect: {
      status: 200,
      json: Array.from({ length: 50 }, (_, i) => ({ id: i, title: `Book ${i}` })),
      headers: { 'content-encoding': 'gzip', vary: 'Origin, Accept-Encoding' },
    },
  },

  // middlewares
  {
    name: 'application middlewares wrap the response and record headers',
    mode: 'strict',
    path: '/books/1',
    expect: { status: 200, headers: { 'x-wrapped': 'yes', 'x-stamp': 'GET' } },
  },
  {
    name: 'a middleware that returns a value ends the chain',
    mode: 'strict',
    path: '/stop',
    expect: { status: 200, json: { stoppedBy: 'middleware' } },
  },
  {
    name: 'a class middleware with a bound header refuses',
    mode: 'strict',
    path: '/books',
    init: json({ title: 'Ubik', year: 1969, tags: [] }),
    expect: { status: 401, json: { error: 'Unauthorized', message: 'Missing or wrong x-api-key header' } },
  },
  {
    name: 'the request: query, cookies and the forwarded address',
    mode: 'strict',
    path: '/books/request/info?a=1&a=2&b=x',
    init: { headers: { cookie: 'session=abc; theme=dark', 'x-forwarded-for': '203.0.113.9, 10.0.0.1' } },
    expect: {
      status: 200,
      json: {
        method: 'GET',
        path: '/books/request/info',
        query: { a: ['1', '2'], b: 'x' },
        cookies: { session: 'abc', theme: 'dark' },
        ip: '203.0.113.9',
      },
    },
  },

  // CORS
  {
    name: 'CORS: an allowed origin is echoed, with credentials and exposed headers',
    mode: 'strict',
    path: '/books/1',
    init: { headers: { origin: 'https://app.example' } },
    expect: {
      status: 200,
      headers: {
        'access-control-allow-origin': 'https://app.example',
        'access-control-allow-credentials': 'true',
        'access-control-expose-headers': 'x-stamp',
      },
    },
  },
  {
    name: 'CORS: another origin gets no CORS headers',
    mode: 'strict',
    path: '/books/1',
    init: { headers: { origin: 'https://evil.example' } },
    expect: { status: 200, headers: { 'access-control-allow-origin': null } },
  },
  {
    name: 'CORS: a preflight answers 204',
    mode: 'strict',
    path: '/books',
    init: {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-api-key, content-type',
      },
    },
    expect: {
      status: 204,
      text: '',
      headers: { 'access-control-allow-origin': 'https://app.example', 'access-control-allow-headers': 'x-api-key, content-type' },
    },
  },

  // handlerTimeout: the route's @HandlerTimeout(100) passes, its signal aborts with a TimeoutError
  {
    name: 'a handler past its deadline answers 503 with the JSON error body',
    mode: 'strict',
    path: '/cancel/deadline',
    expect: { status: 503, json: { error: 'Service Unavailable', message: 'The handler did not answer within 100 ms' } },
  },
  {
    name: 'the late handler saw req.signal abort with a TimeoutError',
    mode: 'strict',
    path: '/cancel/last',
    expect: { status: 200, json: { reason: 'TimeoutError' } },
  },

  // env<T>(): the reader the build wrote, on a given source
  {
    name: 'env<T>(): every variable converted',
    mode: 'strict',
    path: '/config/given?PORT=8080&DEBUG=1&MODE=live&HOSTS=a.example,b.example&API_TOKEN=t0k',
    expect: {
      status: 200,
      json: { config: { PORT: 8080, DEBUG: true, MODE: 'live', HOSTS: ['a.example', 'b.example'], API_TOKEN: 't0k' } },
    },
  },
  {
    name: 'env<T>(): one KILN051 error names every missing and malformed variable, never a secret’s value',
    mode: 'strict',
    path: '/config/given?PORT=eighty&MODE=staging&API_TOKEN=&RETRIES=s3cr3t-ish',
    expect: {
      status: 200,
      json: {
        code: 'KILN051',
        message: [
          'The environment does not give a valid GivenConfig (6 problems):',
          '  - PORT: expected a number, got "eighty"',
          '  - DEBUG: missing (expected true, false, 1 or 0)',
          '  - MODE: expected one of "live", "test", got "staging"',
          '  - HOSTS: missing (expected a comma-separated list of strings)',
          '  - API_TOKEN: missing (expected a string)',
          '  - RETRIES: expected a number, got "s3cr3t-ish"',
        ].join('\n'),
      },
    },
  },

  // rate limit, MemoryStore: two a minute per client
  {
    name: 'rate limit: the first request passes with the headers',
    mode: 'strict',
    path: '/limited',
    init: { headers: { 'x-forwarded-for': '198.51.100.1' } },
    expect: { status: 200, json: { ok: true }, headers: { 'ratelimit-limit': '2', 'ratelimit-remaining': '1' } },
  },
  {
    name: 'rate limit: the second passes',
    mode: 'strict',
    path: '/limited',
    init: { headers: { 'x-forwarded-for': '198.51.100.1' } },
    expect: { status: 200, headers: { 'ratelimit-remaining': '0' } },
  },
  {
    name: 'rate limit: the third answers 429',
    mode: 'strict',
    path: '/limited',
    init: { headers: { 'x-forwarded-for': '198.51.100.1' } },
    expect: { status: 429, headers: { 'ratelimit-remaining': '0' } },
  },
  {
    name: 'rate limit: another client is counted apart',
    mode: 'strict',
    path: '/limited',
    init: { headers: { 'x-forwarded-for': '198.51.100.2' } },
    expect: { status: 200, headers: { 'ratelimit-remaining': '1' } },
  },

  // errors: 'problem+json' (strict): RFC 9457 problem details for Kiln's own errors and a thrown HttpError
  {
    name: 'problem details: an unknown path answers 404 application/problem+json',
    mode: 'problem',
    path: '/nowhere',
    expect: {
      status: 404,
      json: { type: 'about:blank', title: 'Not Found', status: 404, detail: 'No route for GET /nowhere', instance: '/nowhere' },
      headers: { 'content-type': problemType },
    },
  },
  {
    name: 'problem details: a wrong method answers 405 with Allow',
    mode: 'problem',
    path: '/books/greeting',
    init: { method: 'POST' },
    expect: {
      status: 405,
      json: {
        type: 'about:blank',
        title: 'Method Not Allowed',
        status: 405,
        detail: 'Method POST is not allowed for /books/greeting',
        instance: '/books/greeting',
      },
      headers: { allow: 'GET, HEAD, OPTIONS', 'content-type': problemType },
    },
  },
  {
    name: 'problem details: a failed conversion answers 400 listing the failure in errors',
    mode: 'problem',
    path: '/books/x',
    expect: {
      status: 400,
      json: {
        type: 'about:blank',
        title: 'Bad Request',
        status: 400,
        detail: "Parameter 'id' expected number, got 'x'",
        instance: '/books/x',
        errors: [{ path: 'id', expected: 'number', value: 'x' }],
      },
      headers: { 'content-type': problemType },
    },
  },
  {
    name: "problem details: a thrown HttpError's data are extension members",
    mode: 'problem',
    path: '/books/9',
    expect: {
      status: 404,
      json: { type: 'about:blank', title: 'Not Found', status: 404, detail: 'No book 9', instance: '/books/9', id: 9 },
      headers: { 'content-type': problemType },
    },
  },
  {
    name: 'problem details: an internal error answers 500 without its detail',
    mode: 'problem',
    path: '/books/fail/plain',
    expect: {
      status: 500,
      json: {
        type: 'about:blank',
        title: 'Internal Server Error',
        status: 500,
        detail: 'Internal Server Error',
        instance: '/books/fail/plain',
      },
      headers: { 'content-type': problemType },
    },
  },
  {
    name: 'problem details: a body over maxBodySize answers 413',
    mode: 'problem',
    path: '/books/form',
    init: { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `title=${'x'.repeat(2000)}` },
    expect: {
      status: 413,
      json: {
        type: 'about:blank',
        title: 'Payload Too Large',
        status: 413,
        detail: 'Request body is larger than the limit of 1024 bytes',
        instance: '/books/form',
      },
      headers: { 'content-type': problemType },
    },
  },
  {
    name: 'problem details: a handler past its deadline answers 503',
    mode: 'problem',
    path: '/cancel/deadline',
    expect: {
      status: 503,
      json: {
        type: 'about:blank',
        title: 'Service Unavailable',
        status: 503,
        detail: 'The handler did not answer within 100 ms',
        instance: '/cancel/deadline',
      },
      headers: { 'content-type': problemType },
    },
  },
  ...[200, 200].map(
    (status, i): Case => ({
      name: `problem details: rate limit, request ${i + 1} of 2 passes`,
      mode: 'problem',
      path: '/limited',
      init: { headers: { 'x-forwarded-for': '198.51.100.9' } },
      expect: { status },
    }),
  ),
  {
    name: "problem details: the rate limiter's default 429 follows the app's choice, its headers kept",
    mode: 'problem',
    path: '/limited',
    init: { headers: { 'x-forwarded-for': '198.51.100.9', origin: 'https://app.example' } },
    expect: {
      status: 429,
      headers: {
        'content-type': problemType,
        'ratelimit-limit': '2',
        'ratelimit-remaining': '0',
        'access-control-allow-origin': 'https://app.example',
      },
    },
  },
  // server-sent events
  {
    name: 'server-sent events: each value one event, projected to its type, with event, id and retry; Last-Event-ID a typed header',
    mode: 'strict',
    path: '/events/quotes',
    init: { headers: { 'last-event-id': '40' } },
    expect: {
      status: 200,
      text: ':\n\ndata: {"symbol":"KLN","price":1.5}\n\n' + 'event: quote\nid: 7\nretry: 1500\ndata: {"symbol":"ÉTÉ ✓ 🚀","price":42}\n\n',
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
    },
  },
  {
    name: 'server-sent events: text is sent as it is, one data line per line, after the opening retry',
    mode: 'loose',
    path: '/events/text',
    expect: {
      status: 200,
      text: ':\nretry: 500\n\ndata: line 1\ndata: line 2\ndata: line 3\ndata: line 4\n\ndata: ünïcödé ✓ 🚀\n\n',
      headers: { 'content-type': 'text/event-stream' },
    },
  },
  {
    name: 'server-sent events: a client accepting only JSON gets 406',
    mode: 'strict',
    path: '/events/quotes',
    init: { headers: { accept: 'application/json' } },
    expect: { status: 406, json: { error: 'Not Acceptable', message: 'GET /events/quotes answers text/event-stream only' } },
  },
  {
    name: 'server-sent events: HEAD answers the head alone',
    mode: 'strict',
    path: '/events/quotes',
    init: { method: 'HEAD' },
    expect: { status: 200, text: '', headers: { 'content-type': 'text/event-stream' } },
  },
];

/** Headers that differ by design between runtimes or between two runs (docs/guide/runtimes.md). */
const variesByRuntime = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'ratelimit-reset',
  'retry-after',
]);

interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

const runtimeNames: RuntimeName[] = ['node20', 'node26', 'bun', 'deno', 'workerd'];
const served: ServedRuntime[] = [];
const answers = new Map<RuntimeName, Answer[]>();
let document = '';

async function answer(base: string, item: Case): Promise<Answer> {
  const response = await fetch(base + item.path, { ...item.init, redirect: 'manual' });
  const text = await response.text();
  return { status: response.status, headers: Object.fromEntries(response.headers), text };
}

test.before(async () => {
  await bundleEntries();
  const started = await Promise.allSettled(runtimeNames.map((name) => serveOn(name)));
  for (const result of started) if (result.status === 'fulfilled') served.push(result.value);
  const failed = started.flatMap((result, i) => (result.status === 'rejected' ? [`${runtimeNames[i]}: ${String(result.reason)}`] : []));
  if (failed.length > 0) {
    for (const runtime of served) runtime.stop();
    throw new Error(`Runtimes that did not start:\n${failed.join('\n')}`);
  }
  // In order on each runtime (the rate-limit cases count), all runtimes at once.
  await Promise.all(
    served.map(async (runtime) => {
      const list: Answer[] = [];
      for (const item of cases) list.push(await answer(runtime.bases[item.mode], item));
      answers.set(runtime.name, list);
    }),
  );
  document = readFileSync(join(root, 'build', 'runtimes-conformance', 'openapi.json'), 'utf8');
});

test.after(() => {
  for (const runtime of served) runtime.stop();
});

cases.forEach((item, index) => {
  test(item.name, () => {
    for (const name of runtimeNames) {
      const got = answers.get(name)![index]!;
      const where = `${name}: ${item.mode} ${item.init?.method ?? 'GET'} ${item.path}`;
      assert.is(got.status, item.expect.status, `${where}: status (body ${got.text})`);
      if (item.expect.json !== undefined) {
        const body = JSON.parse(got.text) as Record<string, unknown>;
        // A JSON parse message is the runtime's own: only the prefix is Kiln's.
        if (item.engineWorded) {
          assert.is(body.error, 'Bad Request', where);
          assert.match(String(body.message), /^Failed to parse JSON body: /, where);
        } else assert.equal(body, item.expect.json, where);
      }
      if (item.expect.text !== undefined) assert.is(got.text, item.expect.text, where);
      for (const [header, value] of Object.entries(item.expect.headers ?? {})) {
        assert.is(got.headers[header] ?? null, value, `${where}: header ${header}`);
      }
    }
  });
});

test("the served OpenAPI document is the build's, completed with the rate limiter's 429, on every runtime", async () => {
  const built = JSON.parse(document) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
  assert.ok(built.paths['/books/{id}']?.get !== undefined);
  for (const runtime of served) {
    const reply = await fetch(`${runtime.bases.strict}/openapi.json`);
    assert.is(reply.status, 200, runtime.name);
    const servedDocument = (await reply.json()) as typeof built;
    assert.equal(Object.keys(servedDocument.paths).sort(), Object.keys(built.paths).sort(), runtime.name);
    assert.ok(servedDocument.paths['/limited']!.get!.responses['429'] !== undefined, `${runtime.name}: the limiter's 429 is described`);
  }
});

/** Asks `/events/last-close` until the stream named has ended there (bounded, not a timing assertion). */
async function streamClosed(
  base: string,
  stream: string,
  runtime: string,
  signalledIsEnough = false,
): Promise<{ aborted?: boolean; produced?: number; signalled?: boolean }> {
  for (let i = 0; i < 400; i++) {
    const last = (await (await fetch(`${base}/events/last-close`)).json()) as {
      stream?: string;
      aborted?: boolean;
      produced?: number;
      signalled?: boolean;
    };
    if (last.stream === stream || (signalledIsEnough && last.signalled === true)) return last;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${runtime}: the ${stream} stream's generator was not closed within 10 s`);
}

test('server-sent events: a client that goes away closes the generator (return()) and aborts req.signal, on every runtime', async () => {
  for (const runtime of served) {
    const controller = new AbortController();
    const response = await fetch(`${runtime.bases.strict}/events/endless`, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    await reader.read();
    controller.abort();
    const closed = await streamClosed(runtime.bases.strict, 'endless', runtime.name, runtime.name === 'workerd');
    assert.ok(closed.signalled, `${runtime.name}: req.signal aborted at once`);
    // workerd cancels a request's pending timers when its client leaves: the generator, at its await, is never resumed.
    if (runtime.name !== 'workerd') assert.ok(closed.aborted, `${runtime.name}: the generator's finally ran`);
  }
});

test('server-sent events: a client that reads nothing is cut after sendTimeout (2 s here) and the generator closed, on every runtime', async () => {
  for (const runtime of served) {
    const { hostname, port } = new URL(runtime.bases.strict);
    const socket = connect(Number(port), hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.pause();
    socket.write('GET /events/flood HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const closed = await streamClosed(runtime.bases.strict, 'flood', runtime.name);
    socket.destroy();
    assert.ok(closed.aborted, `${runtime.name}: req.signal aborted`);
    // 64 KiB events: what the sockets' buffers take, never an unbounded queue.
    assert.ok(closed.produced! < 512, `${runtime.name}: ${closed.produced} events produced for a client that read nothing`);
  }
});

test("a head over maxHeaderSize (8 KiB here) answers 431 with Kiln's body from Node, Bun and Deno; past Bun's own 16 KiB, Bun's", async () => {
  const kilns = JSON.stringify({
    error: 'Request Header Fields Too Large',
    message: 'Request line and headers are larger than the server accepts',
  });
  const listening = served.filter((candidate) => candidate.name !== 'workerd');
  assert.equal(
    listening.map((runtime) => runtime.name),
    ['node20', 'node26', 'bun', 'deno'],
  );
  for (const [size, bunBody] of [
    [10 * 1024, kilns],
    [20 * 1024, ''],
  ] as const) {
    for (const runtime of listening) {
      const reply = await fetch(`${runtime.bases.strict}/books/1`, { headers: { 'x-big': 'x'.repeat(size) } });
      assert.is(reply.status, 431, `${runtime.name}, ${size} bytes`);
      assert.is(await reply.text(), runtime.name === 'bun' ? bunBody : kilns, `${runtime.name}, ${size} bytes`);
    }
  }
});

test('problem mode: a head over maxHeaderSize answers 431 as problem details from Node, Bun and Deno alike', async () => {
  const listening = served.filter((candidate) => candidate.name !== 'workerd');
  for (const runtime of listening) {
    const reply = await fetch(`${runtime.bases.problem}/books/1`, { headers: { 'x-big': 'x'.repeat(10 * 1024) } });
    assert.is(reply.status, 431, runtime.name);
    assert.is(reply.headers.get('content-type'), problemType, runtime.name);
    assert.equal(
      await reply.json(),
      {
        type: 'about:blank',
        title: 'Request Header Fields Too Large',
        status: 431,
        detail: 'Request line and headers are larger than the server accepts',
      },
      runtime.name,
    );
  }
});

/** The status and body of what a server answers to `head`, sent as it is on a connection of its own. */
function rawAnswer(base: string, head: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.setEncoding('latin1');
    const answered = () => ({ status: Number(received.slice(9, 12)), body: received.slice(received.indexOf('\r\n\r\n') + 4) });
    socket.on('data', (chunk: string) => (received += chunk));
    // A server that refuses a head before reading all of it closes with bytes unread: a reset after its answer.
    socket.on('error', (error) => (received === '' ? reject(error) : resolve(answered())));
    socket.on('close', () => resolve(answered()));
    socket.write(head);
  });
}

test("Deno's own head limits come first: past 128 header lines or a 64 KiB head, Deno's empty 400; below them, Kiln's 431", async () => {
  const deno = served.find((runtime) => runtime.name === 'deno')!;
  const head = (fields: string) => `GET /books/1 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${fields}\r\n`;
  const lines = (count: number) => Array.from({ length: count }, (_, i) => `x-f${i}: v\r\n`).join('');
  // With Host and Connection: 128 lines reach Kiln (whose maxHeadersCount, 1000, they are far from), 129 do not.
  assert.is((await rawAnswer(deno.bases.strict, head(lines(126)))).status, 200);
  assert.equal(await rawAnswer(deno.bases.strict, head(lines(127))), { status: 400, body: '' });
  // 20 KiB is past Kiln's maxHeaderSize (8 KiB here) and within Deno's 64 KiB: Kiln's 431; 70 KiB, Deno's 400.
  const kilns = await rawAnswer(deno.bases.strict, head(`x-big: ${'x'.repeat(20 * 1024)}\r\n`));
  assert.is(kilns.status, 431);
  assert.ok(kilns.body.includes('Request line and headers are larger than the server accepts'), kilns.body);
  assert.equal(await rawAnswer(deno.bases.strict, head(`x-big: ${'x'.repeat(70 * 1024)}\r\n`)), { status: 400, body: '' });
});

test('a multipart part reaches the handler with its declared type unchanged (text/plain gains no charset), in the order sent, on Node, Bun and Deno', async () => {
  const listening = served.filter((candidate) => candidate.name !== 'workerd');
  const declared = ['text/plain', 'application/json', 'text/csv', 'image/png', 'application/octet-stream', 'text/html'];
  const boundary = 'kiln-conformance';
  const body =
    declared
      .map(
        (type, i) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${i === 0 ? 'a' : 'f'}"; filename="p${i}"\r\nContent-Type: ${type}\r\n\r\nbody ${i}\r\n`,
      )
      .join('') + `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nplain field\r\n--${boundary}--\r\n`;
  const parts = [
    ...declared.map((type, i) => ({ name: i === 0 ? 'a' : 'f', file: `p${i}`, type, text: `body ${i}` })),
    { name: 'note', field: 'plain field' },
  ];
  for (const runtime of listening) {
    const reply = await fetch(`${runtime.bases.strict}/uploads/parts`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    assert.is(reply.status, 200, runtime.name);
    assert.equal(await reply.json(), { parts, getType: 'text/plain' }, runtime.name);
  }
});

test('req.signal: the client leaving cancels the handler’s fetch to a slow local upstream, on Node, Bun and Deno', async () => {
  const listening = served.filter((candidate) => candidate.name !== 'workerd');
  for (const runtime of listening) {
    let markReceived!: () => void;
    let markGone!: () => void;
    const received = new Promise<void>((resolve) => (markReceived = resolve));
    const gone = new Promise<void>((resolve) => (markGone = resolve));
    const upstream = createHttpServer((incoming) => {
      markReceived();
      incoming.socket.once('close', markGone);
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/slow`;
      const client = new AbortController();
      const call = fetch(`${runtime.bases.strict}/cancel/upstream?url=${encodeURIComponent(url)}`, { signal: client.signal }).catch(
        (error: Error) => error.name,
      );
      await received;
      client.abort();
      assert.is(await call, 'AbortError', runtime.name);
      await gone; // the upstream's connection closed: the runtime cancelled the handler's fetch
      let outcome: unknown;
      for (let i = 0; i < 100; i++) {
        outcome = await (await fetch(`${runtime.bases.strict}/cancel/last`)).json();
        if ((outcome as { upstream?: string }).upstream !== undefined) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal(outcome, { upstream: 'AbortError', reason: 'AbortError' }, runtime.name);
    } finally {
      upstream.close();
      upstream.closeAllConnections();
    }
  }
});

test('env<T>() reads the runtime’s own environment: process.env on Node and Bun, Deno.env on Deno', async () => {
  const listening = served.filter((candidate) => candidate.name !== 'workerd');
  assert.equal(
    listening.map((runtime) => runtime.name),
    ['node20', 'node26', 'bun', 'deno'],
  );
  for (const runtime of listening) {
    const reply = await fetch(`${runtime.bases.strict}/config/runtime`);
    assert.equal(await reply.json(), { config: { KILN_CONFORMANCE_PORT: 8081, KILN_CONFORMANCE_MODE: 'test' } }, runtime.name);
  }
});

for (const name of runtimeNames.slice(1)) {
  test(`${name} answers every case as Node 20 does (status, headers, body)`, () => {
    const reference = answers.get('node20')!;
    const differences: string[] = [];
    answers.get(name)!.forEach((got, i) => {
      const want = reference[i]!;
      const label = cases[i]!.name;
      if (got.status !== want.status) differences.push(`${label}: status ${got.status}, Node 20 ${want.status}`);
      if (got.text !== want.text && !cases[i]!.engineWorded)
        differences.push(`${label}: body ${JSON.stringify(got.text)}, Node 20 ${JSON.stringify(want.text)}`);
      for (const header of new Set([...Object.keys(got.headers), ...Object.keys(want.headers)])) {
        if (variesByRuntime.has(header)) continue;
        if (got.headers[header] !== want.headers[header])
          differences.push(`${label}: ${header} ${JSON.stringify(got.headers[header])}, Node 20 ${JSON.stringify(want.headers[header])}`);
      }
    });
    assert.equal(differences, [], differences.join('\n'));
  });
}

test.run();
