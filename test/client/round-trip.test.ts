// Every type of the conversion table (docs/guide/supported-types.md), sent by the typed client the
// build wrote for the contract fixture (test/openapi/fixtures/contract) and read back: for every
// generated value the server binds exactly the value the client was given, over a socket and
// through app.fetch, with strictValidation on (a value sent wrong would be a 400).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createServer, type KilnServer } from '@kiln/core';
import { compileFixture, root } from '../transformer/support/compile-fixture.js';
import { loadClient } from './support/load-client.js';

const RoundTrip = suite('typed client: every supported type round-trips');
const outDir = join(root, 'build', 'openapi-contract');
let app: KilnServer;
let base = '';
// The generated module is built by this suite; its types are held by types.test.ts.
type AnyClient = any;
let overSocket: AnyClient;
let inProcess: AnyClient;

RoundTrip.before(async () => {
  const built = await compileFixture(join(root, 'test', 'openapi', 'fixtures', 'contract'), join(outDir, 'dist'));
  assert.is(built.exitCode, 0, built.output);
  const fixture = await import(pathToFileURL(join(outDir, 'dist', 'app.js')).href);
  app = createServer({ controllers: fixture.controllers, strictValidation: true });
  base = `http://127.0.0.1:${(await app.listen(0, '127.0.0.1')).port}`;
  const { createClient } = await loadClient<{ createClient(options?: unknown): AnyClient }>(join(outDir, 'client.ts'));
  overSocket = createClient({ baseUrl: base });
  inProcess = createClient(app.fetch);
});

RoundTrip.after(() => app.close());

const text = fc.string({ unit: 'grapheme', maxLength: 12 });
const number = fc.double({ noNaN: true, noDefaultInfinity: true });
const date = fc.date({ noInvalidDate: true, min: new Date(-8_640_000_000_000_000), max: new Date(8_640_000_000_000_000) });
const sort = fc.constantFrom('asc', 'desc');
/** A value as JSON gives it back (`-0` is `0`). */
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value));

function both(run: (client: AnyClient) => Promise<void>): Promise<void> {
  return run(inProcess).then(() => run(overSocket));
}

RoundTrip('scalars: string, boolean, number, Date, a JSON object, string and numeric enums, literal unions, unknown', async () => {
  const scalars = fc.record({
    s: text,
    b: fc.boolean(),
    n: number,
    d: date,
    o: fc.record({ a: number, tags: fc.array(text, { maxLength: 3 }) }, { requiredKeys: ['a'] }),
    e: sort,
    ne: fc.constantFrom(0, 1, 2),
    u: fc.constantFrom('x', 'y'),
    nu: fc.constantFrom(10, 20),
    any: text,
  });
  await fc.assert(
    fc.asyncProperty(scalars, fc.boolean(), async (input, socket) => {
      const result = await (socket ? overSocket : inProcess).query.scalars(input);
      assert.is(result.ok, true, JSON.stringify(result.error));
      assert.equal(result.data, asJson({ ...input, d: input.d.toISOString() }));
    }),
    { numRuns: 150 },
  );
});

RoundTrip('arrays: string[], number[], boolean[], Date[], enum[], object[] and an items argument, each key repeated', async () => {
  const arrays = fc.record({
    ss: fc.array(text, { maxLength: 4 }),
    ns: fc.array(number, { maxLength: 4 }),
    bs: fc.array(fc.boolean(), { maxLength: 4 }),
    ds: fc.array(date, { maxLength: 4 }),
    es: fc.array(sort, { maxLength: 4 }),
    os: fc.array(fc.record({ a: number }), { maxLength: 3 }),
    items: fc.array(number, { maxLength: 4 }),
  });
  await fc.assert(
    fc.asyncProperty(arrays, fc.boolean(), async (input, socket) => {
      const result = await (socket ? overSocket : inProcess).query.arrays(input);
      assert.is(result.ok, true, JSON.stringify(result.error));
      assert.equal(result.data, asJson({ ...input, ds: input.ds.map((d) => d.toISOString()) }));
    }),
    { numRuns: 150 },
  );
});

RoundTrip('path parameters: number, string (any text, a slash included), Date and enum, percent-encoded', async () => {
  const params = fc.record({ n: number, s: text.filter((s) => s !== ''), d: date, e: sort });
  await fc.assert(
    fc.asyncProperty(params, fc.boolean(), async (input, socket) => {
      const result = await (socket ? overSocket : inProcess).params.all(input);
      assert.is(result.ok, true, `${result.status} ${JSON.stringify(result.error)}`);
      assert.equal(result.data, asJson({ ...input, d: input.d.toISOString() }));
    }),
    { numRuns: 150 },
  );
});

RoundTrip('headers: number, string, boolean, number[] (one comma-separated line) and Date', async () => {
  // A header value is Latin-1 text without surrounding blanks (fetch refuses, HTTP trims), and a list is split on commas.
  const headerText = fc.stringMatching(/^[!-+\--~]([ !-+\--~]{0,10}[!-+\--~])?$/);
  const headers = fc.record({
    'x-count': number,
    'x-name': headerText,
    'x-flag': fc.boolean(),
    'x-ids': fc.array(number, { maxLength: 4 }),
    'x-when': date,
  });
  await fc.assert(
    fc.asyncProperty(headers, fc.boolean(), async (input, socket) => {
      const result = await (socket ? overSocket : inProcess).headers.all(input);
      assert.is(result.ok, true, JSON.stringify(result.error));
      const expected = {
        count: input['x-count'],
        name: input['x-name'],
        flag: input['x-flag'],
        ids: input['x-ids'],
        when: input['x-when'].toISOString(),
        ip: result.data.ip,
      };
      assert.equal(result.data, asJson(expected));
    }),
    { numRuns: 100 },
  );
});

RoundTrip('absent optional values and defaults: what the server gives when the client sends nothing', async () => {
  await both(async (client) => {
    const scalars = await client.query.scalars();
    assert.equal(scalars.data, { b: false });
    const arrays = await client.query.arrays({});
    assert.equal(arrays.data, { ss: [], ns: [], bs: [], ds: [], es: [], os: [], items: [] });
    const required = await client.query.required({ page: 2, q: 'tea' });
    assert.equal(required.data, { page: 2, q: 'tea', size: 20, order: 'asc' });
  });
});

RoundTrip('bodies: a typed JSON body, body fields, a text body, any body, and a 204', async () => {
  const person = {
    name: 'Ada',
    email: 'ada@example.com',
    age: 36,
    level: 2,
    address: { street: '1 Lane', city: 'London', zip: '12345' },
    previous: [],
    born: '1815-12-10',
  };
  await both(async (client) => {
    const created = await client.people.create({ body: person });
    assert.is(created.status, 201);
    assert.equal(created.data, { ...person, id: 1, born: '1815-12-10T00:00:00.000Z' });
    const renamed = await client.people.rename({ id: 7, body: { name: 'Bo' } });
    assert.equal(renamed.data, { id: 7, name: 'Bo', nickname: null });
    const note = await client.people.note({ id: 3, body: 'a "quoted" note\n' });
    assert.equal(note.data, { id: 3, note: 'a "quoted" note\n' });
    const anything = await client.misc.anything({ body: { deep: [1, { x: null }] } });
    assert.equal(anything.data, { received: { deep: [1, { x: null }] } });
    const removed = await client.people.removeOld({ id: 3 });
    assert.equal([removed.ok, removed.status, removed.data], [true, 204, undefined]);
  });
});

RoundTrip(
  "declared errors: @throws types (an HttpError subclass, HttpError<423, Lock>) and the rate limiter's 429 are typed values, in the document too",
  async () => {
    const document = JSON.parse(readFileSync(join(outDir, 'openapi.json'), 'utf8'));
    const remove = document.paths['/people/{id}'].delete.responses;
    assert.equal(remove['404'].content['application/json'].schema.properties.data, {
      type: 'object',
      properties: { id: { type: 'number' } },
      required: ['id'],
    });
    assert.equal(remove['404'].content['application/json'].schema.required, ['error', 'message', 'data']);
    assert.equal(remove['423'].content['application/json'].schema.properties.data, { $ref: '#/components/schemas/Lock' });
    assert.is(
      document.paths['/misc/limited'].get.responses['429'].content['application/json'].schema.$ref,
      '#/components/schemas/KilnErrorBody',
    );
    await both(async (client) => {
      const missing = await client.people.remove({ id: 0 });
      assert.equal(
        [missing.ok, missing.status, missing.error],
        [false, 404, { error: 'Not Found', message: 'No person 0', data: { id: 0 } }],
      );
      const locked = await client.people.remove({ id: 13 });
      assert.equal([locked.status, locked.error.data], [423, { until: '2030-01-01', by: ['admin'] }]);
    });
    // max 2 a minute per client: the third call of one client is the typed 429.
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await overSocket.misc.limited());
    assert.equal(
      answers.map((a) => [a.ok, a.status]),
      [
        [true, 200],
        [true, 200],
        [false, 429],
      ],
    );
    assert.is(answers[2].error.error, 'Too Many Requests');
  },
);

RoundTrip.run();
