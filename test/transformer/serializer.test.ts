// Typed responses: the build writes a projecting serialiser for each route's return type and the
// runtime sends the handler's value through it. For every type shape the answer must JSON.parse to
// what JSON.stringify gives for the value filtered to the type (the properties the type declares),
// over a real socket on 127.0.0.1 and through app.fetch alike.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { overBothTransports, type Send } from '../support/server.js';
import { SerializedController, ShortCircuitedController, userRow } from './support/serializer-controllers.js';

const config = { controllers: [SerializedController, ShortCircuitedController] };

/** What JSON.stringify sends for a value already filtered to its type by hand. */
const asJson = (filtered: unknown): unknown => JSON.parse(JSON.stringify(filtered));

const publicUser = (row: typeof userRow) => ({
  id: row.id,
  name: row.name,
  address: { street: row.address.street, city: row.address.city },
});

async function expectJson(send: Send, path: string, filtered: unknown, status = 200): Promise<string> {
  const reply = await send(path);
  assert.is(reply.status, status, `${path}: ${reply.text}`);
  assert.is(reply.headers.get('content-type'), 'application/json; charset=utf-8', path);
  const length = reply.headers.get('content-length'); // set over the socket; app.fetch's Response has none
  if (length !== null) assert.is(length, String(Buffer.byteLength(reply.text)), `${path}: content-length`);
  assert.equal(reply.json(), asJson(filtered), path);
  return reply.text;
}

test('nested object: only the declared properties are sent, at every depth (the password never leaves the server)', () =>
  overBothTransports(config, async (send) => {
    const text = await expectJson(send, '/s/nested', publicUser(userRow));
    assert.not.match(text, 'hunter2');
    assert.not.match(text, 'passwordHash');
    assert.not.match(text, 'internalNote');
  }));

test('optional properties: sent when present, left out when absent or undefined; null is kept', () =>
  overBothTransports(config, async (send) => {
    await expectJson(send, '/s/optional?which=all', { id: 3, nickname: 'countess', bio: 'math' });
    await expectJson(send, '/s/optional?which=none', { id: 1 });
    await expectJson(send, '/s/optional?which=null', { id: 2, bio: null });
  }));

test('union of object types: each member sends its own declared properties', () =>
  overBothTransports(config, async (send) => {
    await expectJson(send, '/s/union?kind=circle', { kind: 'circle', radius: 2 });
    await expectJson(send, '/s/union?kind=square', { kind: 'square', side: 3 });
  }));

test('union of scalars: number, string with quotes and a newline, null', () =>
  overBothTransports(config, async (send) => {
    await expectJson(send, '/s/scalars?which=number', 42.5);
    const text = await expectJson(send, '/s/scalars?which=string', 'he said "hi"\n');
    assert.is(text, JSON.stringify('he said "hi"\n'));
    await expectJson(send, '/s/scalars?which=null', null);
  }));

test('array of objects: every item filtered to its type; non-ASCII text survives', () =>
  overBothTransports(config, async (send) => {
    await expectJson(send, '/s/array', [
      publicUser(userRow),
      publicUser({ ...userRow, id: 8, name: 'Grace' }),
      publicUser({ ...userRow, id: 9, name: 'Édith 🎉' }),
    ]);
  }));

test("every route is projected by generated code, then written by JSON.stringify: typia's string-building serialiser is never used", () => {
  const js = readFileSync(new URL('./support/serializer-controllers.js', import.meta.url), 'utf8');
  const declaration = (route: string) => {
    const name = new RegExp(`compiledSerializer\\((kiln\\$serialize_\\d+)\\), Get\\('${route}'\\)`).exec(js)?.[1];
    assert.ok(name, `${route} has a serialiser`);
    return new RegExp(`const ${name!.replace('$', '\\$')} = (.*)`).exec(js)![1]!;
  };
  for (const route of ['/array', '/nested']) assert.match(declaration(route), /^kiln\$b\.projectingSerializer\(/);
  assert.not.match(js, 'createStringify');
  assert.not.match(js, 'typia/lib/internal/_jsonStringify');
});

test('string and numeric enums are sent as their values', () =>
  overBothTransports(config, async (send) => {
    await expectJson(send, '/s/enum', [
      { name: 'a', role: 'admin', level: 2 },
      { name: 'b', role: 'member', level: 1 },
    ]);
  }));

test('a Date in the return type is sent as JSON.stringify sends it (ISO 8601), in arrays too', () =>
  overBothTransports(config, async (send) => {
    const event = { title: 'launch', at: new Date(Date.UTC(2026, 10, 23, 18, 30)), reminders: [new Date(0)] };
    const text = await expectJson(send, '/s/date', event);
    assert.match(text, '"at":"2026-11-23T18:30:00.000Z"');
  }));

test('an inferred return type is serialised from its inferred type', () =>
  overBothTransports(config, async (send) => {
    await expectJson(send, '/s/inferred', { id: 1, label: 'x', at: new Date(0) });
  }));

test('an async handler: the awaited type is serialised; @HttpStatus keeps its status', () =>
  overBothTransports(config, async (send) => {
    await expectJson(send, '/s/async', publicUser(userRow));
    await expectJson(send, '/s/created', publicUser(userRow), 201);
  }));

test('NaN and Infinity are sent as null, as JSON.stringify does', () =>
  overBothTransports(config, async (send) => {
    await expectJson(send, '/s/nan', { n: null, m: null });
  }));

test('opting out with @jsonStringify, or returning any / unknown, sends the whole value with JSON.stringify', () =>
  overBothTransports(config, async (send) => {
    for (const path of ['/s/opted-out', '/s/any', '/s/unknown']) {
      const reply = await send(path);
      assert.is(reply.status, 200);
      assert.is(reply.text, JSON.stringify(userRow), path);
    }
  }));

test('a returned Response is sent as it is', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/s/response');
    assert.is(reply.status, 200);
    assert.equal(reply.json(), userRow);
  }));

test("a middleware's own value is not filtered by the handler's type", () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/m');
    assert.is(reply.status, 200);
    assert.equal(reply.json(), { from: 'middleware', password: 'shown: not the handler value' });
  }));

test('HEAD on a typed route sends the headers without a body', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/s/nested', { method: 'HEAD' });
    assert.is(reply.status, 200);
    assert.is(reply.text, '');
  }));

test.run();
