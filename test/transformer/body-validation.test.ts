// Typed @Body validation (typia, generated at build time): over a real socket on 127.0.0.1 and
// through app.fetch, with strictValidation, and the pass-through without it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { start, request, requestInProcess, type Reply, type Started } from '../support/server.js';
import { bodyValidationControllers } from './support/body-validation-controllers.js';

let lenient: Started;
let strict: Started;

test.before(async () => {
  lenient = await start({ controllers: bodyValidationControllers });
  strict = await start({ controllers: bodyValidationControllers, strictValidation: true });
});
test.after(async () => {
  await lenient.close();
  await strict.close();
});

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});
const raw = (text: string, contentType: string): RequestInit => ({ method: 'POST', body: text, headers: { 'content-type': contentType } });

/** The same request over the socket and through app.fetch: both answers must be equal; the socket's is returned. */
async function send(server: Started, path: string, init: RequestInit): Promise<Reply> {
  const overSocket = await request(server.base, path, init);
  const inProcess = await requestInProcess(server.app, path, init);
  assert.is(inProcess.status, overSocket.status, `${path}: same status through app.fetch`);
  assert.equal(inProcess.json(), overSocket.json(), `${path}: same body through app.fetch`);
  return overSocket;
}

interface Failure {
  path: string;
  expected: string;
  value?: unknown;
}

async function rejects(path: string, init: RequestInit, errors: Failure[]): Promise<Reply> {
  const reply = await send(strict, path, init);
  assert.is(reply.status, 400, reply.text);
  const listed = errors.map((e) => `${e.path} expected ${e.expected}, got ${'value' in e ? JSON.stringify(e.value) : 'undefined'}`);
  assert.equal(reply.json(), { error: 'Bad Request', message: `Invalid request body: ${listed.join('; ')}`, data: { errors } });
  return reply;
}

async function accepts(server: Started, path: string, init: RequestInit, value: unknown): Promise<void> {
  const reply = await send(server, path, init);
  assert.is(reply.status, 200, reply.text);
  assert.equal(reply.json(), { value });
}

const address = { street: '1 Main St', city: 'Springfield' };
const user = { name: 'Ada', email: 'ada@example.com', age: 36, address, previous: [] };

test('strict: a valid body with nested objects, arrays of objects and optional fields passes', async () => {
  const full = {
    ...user,
    nickname: 'countess',
    address: { ...address, zip: '12345' },
    previous: [address, { ...address, city: 'Shelbyville' }],
  };
  await accepts(strict, '/v/user', json(full), full);
  await accepts(strict, '/v/user', json(user), user);
});

test('strict: the exact 400 body names the failing path, what was expected and the value', async () => {
  const reply = await send(strict, '/v/user', json({ ...user, age: -1 }));
  assert.is(reply.status, 400);
  assert.equal(reply.json(), {
    error: 'Bad Request',
    message: 'Invalid request body: $input.age expected number & Minimum<0>, got -1',
    data: { errors: [{ path: '$input.age', expected: 'number & Minimum<0>', value: -1 }] },
  });
  assert.match(reply.headers.get('content-type') ?? '', /^application\/json/);
});

test('strict: every failing path is named, nested objects and array items included', async () => {
  await rejects('/v/user', json({ ...user, name: 7, address: { street: 'x', city: 3 }, previous: [address, { street: 'y' }] }), [
    { path: '$input.name', expected: '(string & MaxLength<20>)', value: 7 },
    { path: '$input.address.city', expected: 'string', value: 3 },
    { path: '$input.previous[1].city', expected: 'string' },
  ]);
});

test('strict: typia tags (Format email, Minimum, MaxLength, Pattern) are enforced', async () => {
  await rejects('/v/user', json({ ...user, name: 'x'.repeat(21), email: 'not-an-email', age: -0.5, address: { ...address, zip: '12' } }), [
    { path: '$input.name', expected: 'string & MaxLength<20>', value: 'x'.repeat(21) },
    { path: '$input.email', expected: 'string & Format<"email">', value: 'not-an-email' },
    { path: '$input.age', expected: 'number & Minimum<0>', value: -0.5 },
    { path: '$input.address.zip', expected: 'string & Pattern<"^[0-9]{5}$">', value: '12' },
  ]);
});

test('strict: a missing required field is reported with no value', async () => {
  const { email: _email, ...withoutEmail } = user;
  await rejects('/v/user', json(withoutEmail), [{ path: '$input.email', expected: '(string & Format<"email">)' }]);
});

test('strict: extra properties are rejected', async () => {
  await rejects('/v/user', json({ ...user, isAdmin: true }), [{ path: '$input.isAdmin', expected: 'undefined', value: true }]);
});

test('strict: an index signature in the type accepts extra properties', async () => {
  await accepts(strict, '/v/labels', json({ id: 1, colour: 'red' }), { id: 1, colour: 'red' });
  await rejects('/v/labels', json({ colour: 'red' }), [{ path: '$input.id', expected: 'number' }]);
});

test('strict: an array body is validated item by item', async () => {
  await accepts(strict, '/v/users', json([user, user]), 2);
  await rejects('/v/users', json([user, { ...user, age: 'old' }]), [
    { path: '$input[1].age', expected: '(number & Minimum<0>)', value: 'old' },
  ]);
  await rejects('/v/users', json({ users: [] }), [{ path: '$input', expected: 'Array<NewUser>', value: { users: [] } }]);
});

test('strict: union bodies', async () => {
  await accepts(strict, '/v/shape', json({ kind: 'circle', radius: 2 }), { kind: 'circle', radius: 2 });
  await accepts(strict, '/v/shape', json({ kind: 'square', side: 3 }), { kind: 'square', side: 3 });
  await rejects('/v/shape', json({ kind: 'circle', radius: -2 }), [{ path: '$input.radius', expected: 'number & Minimum<0>', value: -2 }]);
  await rejects('/v/shape', json({ kind: 'triangle' }), [{ path: '$input', expected: '(Circle | Square)', value: { kind: 'triangle' } }]);
  await accepts(strict, '/v/number', json(5), 5);
  await accepts(strict, '/v/number', json(null), null);
  // `number | null` is a scalar: Kiln checks it without typia, and names the body.
  const text = await send(strict, '/v/number', json('5'));
  assert.equal([text.status, text.json().message], [400, 'Request body expected number, got "5"']);
});

test('strict: a primitive body (text/plain) is validated', async () => {
  await accepts(strict, '/v/text', raw('hello', 'text/plain'), 'hello');
  await rejects('/v/text', raw('hi', 'text/plain'), [{ path: '$input', expected: 'string & MinLength<3>', value: 'hi' }]);
});

test('strict: a class-typed body is checked by its data properties and arrives as a plain object', async () => {
  await accepts(strict, '/v/comment', json({ text: 'good', stars: 5 }), { instance: false, text: 'good' });
  await rejects('/v/comment', json({ text: 'good', stars: 6 }), [{ path: '$input.stars', expected: 'number & Maximum<5>', value: 6 }]);
  await rejects('/v/comment', json({ text: 'good', shout: 'x' }), [{ path: '$input.shout', expected: 'undefined', value: 'x' }]);
});

test('strict: urlencoded form values are strings', async () => {
  await accepts(strict, '/v/search', raw('q=kiln&page=2', 'application/x-www-form-urlencoded'), { q: 'kiln', page: '2' });
  await rejects('/v/search', raw('q=kiln&page=two', 'application/x-www-form-urlencoded'), [
    { path: '$input.page', expected: 'string & Pattern<"^[0-9]+$">', value: 'two' },
  ]);
  await rejects('/v/search', raw('q=a&q=b', 'application/x-www-form-urlencoded'), [
    { path: '$input.q', expected: 'string', value: ['a', 'b'] },
  ]);
});

test("strict: @Body('field') validates the field, with paths that start at the field", async () => {
  await accepts(strict, '/v/field', json({ user, note: 'hi' }), { name: 'Ada', note: 'hi' });
  await accepts(strict, '/v/field', json({ user }), { name: 'Ada' });
  await rejects('/v/field', json({ user: { ...user, age: -1 }, note: 'hi' }), [
    { path: '$input.user.age', expected: 'number & Minimum<0>', value: -1 },
  ]);
  // A scalar field is checked by Kiln's own rules (no typia): its 400 names the field.
  const note = await send(strict, '/v/field', json({ user, note: 3 }));
  assert.equal([note.status, note.json().message], [400, "Parameter 'note' expected string, got 3"]);
  const count = await send(strict, '/v/odd-field', json({ 'x-count': 'many' }));
  assert.equal([count.status, count.json().message], [400, 'Parameter \'x-count\' expected number, got "many"']);
});

test("strict: several typed @Body('field') parameters: the 400 names the failures of all of them", async () => {
  await accepts(strict, '/v/fields?n=1', json({ name: 'Ada', age: 3 }), { name: 'Ada', n: 1, age: 3 });
  await rejects('/v/fields', json({ name: '', age: -3 }), [
    { path: '$input.name', expected: 'string & MinLength<1>', value: '' },
    { path: '$input.age', expected: 'number & Minimum<0>', value: -3 },
  ]);
  await rejects('/v/fields', json({ name: 'Ada', age: 'x' }), [
    { path: '$input.age', expected: '((number & Minimum<0>) | undefined)', value: 'x' },
  ]);
});

test("strict: the fields of a @Body('field') body are not checked beyond the declared fields", async () => {
  await accepts(strict, '/v/field', json({ user, other: true }), { name: 'Ada' });
});

test('strict: any and unknown bodies are never validated', async () => {
  await accepts(strict, '/v/any', json({ whatever: [1, 'x'] }), { whatever: [1, 'x'] });
  await accepts(strict, '/v/unknown', json({ n: 'x' }), { body: { n: 'x' }, n: 'x' });
});

test('strict: a missing required body answers 400 Request body is required, before validation', async () => {
  const reply = await send(strict, '/v/user', { method: 'POST' });
  assert.equal([reply.status, reply.json().message], [400, 'Request body is required']);
});

test('strict: an absent optional body passes; a present one is validated', async () => {
  await accepts(strict, '/v/optional-user', { method: 'POST' }, '(undefined)');
  await rejects('/v/optional-user', json({ ...user, age: -1 }), [{ path: '$input.age', expected: 'number & Minimum<0>', value: -1 }]);
});

test('strict: invalid JSON answers 400 Failed to parse JSON body, before validation', async () => {
  const reply = await send(strict, '/v/user', raw('{"name":', 'application/json'));
  assert.is(reply.status, 400);
  assert.match(reply.json().message, /^Failed to parse JSON body: /);
});

test('strict: the other parameters of the route are bound alongside the validated body', async () => {
  const reply = await send(strict, '/v/with-query?n=4', json({ kind: 'square', side: 1 }));
  assert.equal(reply.json(), { value: { shape: { kind: 'square', side: 1 }, n: 4 } });
});

test('lenient: typed bodies pass through unchecked', async () => {
  const wrong = { ...user, age: -1, email: 'nope', extra: true, previous: 'none' };
  await accepts(lenient, '/v/user', json(wrong), wrong);
  await accepts(lenient, '/v/shape', json({ kind: 'triangle' }), { kind: 'triangle' });
  await accepts(lenient, '/v/text', raw('hi', 'text/plain'), 'hi');
  await accepts(lenient, '/v/field', json({ user: { name: 1 }, note: 3 }), { name: 1, note: 3 });
});

test('lenient: invalid JSON is undefined and an absent required body passes', async () => {
  await accepts(lenient, '/v/optional-user', raw('{"name":', 'application/json'), '(undefined)');
  await accepts(lenient, '/v/any', { method: 'POST' }, '(undefined)');
});

test('the emitted module loads only the typia helpers its validators use, not typia itself', () => {
  const js = readFileSync(fileURLToPath(new URL('./support/body-validation-controllers.js', import.meta.url)), 'utf8');
  assert.match(js, /from "typia\/lib\/internal\/_validateReport"/);
  assert.not.match(js, /from ['"]typia['"]/);
  assert.not.match(js, 'kiln$typia');
});

test.run();
