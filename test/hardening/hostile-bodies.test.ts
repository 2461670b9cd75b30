import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Body, Controller, Post, compiledBinder, type KilnRequest } from '@kiln/core';
import { start, request, type Started } from '../support/server.js';

// Bodies built to cost the server: a typed body with a hundred thousand unexpected keys, nesting
// deep enough to overflow a recursive validator or serialiser, JSON that does not parse. Each is
// the client's mistake: a bounded 400, and the server keeps serving.

interface Person {
  name: string;
  age: number;
}

interface Tree {
  value: number;
  children: Tree[];
}

const reported: unknown[] = [];

@Controller('/hostile')
class HostileController {
  @Post('/person') person(@Body() person: Person) {
    return { name: person.name };
  }
  @Post('/tree') tree(@Body() tree: Tree) {
    return { value: tree.value };
  }
  @Post('/any') any(@Body() body: unknown) {
    return { type: typeof body };
  }
  @Post('/json') @compiledBinder(async (req: KilnRequest) => [await req.json()]) json(value: unknown) {
    return { value };
  }
  @Post('/parse') @compiledBinder(async (req: KilnRequest) => [await req.parseBody()]) parse(value: unknown) {
    return { value: value ?? null };
  }
  @Post('/ok') ok() {
    return { ok: true };
  }
}

let strict: Started;
let shallow: Started;
const Hostile = suite('hostile request bodies');
Hostile.before(async () => {
  const onError = (error: unknown) => {
    reported.push(error);
  };
  // A long keep-alive: the client's pooled connections must not be closed under it while a slow,
  // loaded machine works through the megabyte bodies (a reused socket closing is "fetch failed").
  strict = await start({ controllers: [HostileController], strictValidation: true, keepAliveTimeout: 60_000, onError });
  shallow = await start({ controllers: [HostileController], maxBodyDepth: 3, keepAliveTimeout: 60_000, onError });
});
Hostile.after(async () => {
  await strict.close();
  await shallow.close();
  assert.equal(reported, [], 'no request in this suite is a server-side error');
});

const json = { 'content-type': 'application/json' };
const post = (base: string, path: string, body: string) => request(base, path, { method: 'POST', headers: json, body });

async function stillServes(): Promise<void> {
  assert.is((await post(strict.base, '/hostile/ok', '{}')).status, 200, 'the server still serves');
}

/** A Person with extra keys `k0`, `k1`, … up to about `bytes` of JSON. */
function personWithExtraKeys(bytes: number): { text: string; extra: number } {
  const parts = ['"name":"Ada","age":36'];
  let length = parts[0]!.length;
  let extra = 0;
  while (length < bytes) {
    const part = `"k${extra.toString(36)}":0`;
    parts.push(part);
    length += part.length + 1;
    extra++;
  }
  return { text: `{${parts.join(',')}}`, extra };
}

Hostile('a 1 MiB typed body with ~100,000 unexpected keys answers a 400 of at most 16 KiB listing ten', async () => {
  const { text, extra } = personWithExtraKeys(1024 * 1024 - 64);
  assert.ok(extra > 100_000, `${extra} extra keys`);
  const replies = await Promise.all(Array.from({ length: 5 }, () => post(strict.base, '/hostile/person', text)));
  for (const reply of replies) {
    assert.is(reply.status, 400);
    assert.ok(Buffer.byteLength(reply.text) <= 16 * 1024, `${Buffer.byteLength(reply.text)} bytes`);
    const body = reply.json();
    assert.is(body.data.errors.length, 10);
    assert.is(body.data.more, extra - 10);
    assert.equal(body.data.errors[0], { path: '$input.k0', expected: 'undefined', value: 0 });
    assert.ok(
      body.message.startsWith('Invalid request body: $input.k0 expected undefined, got 0; $input.k1 expected undefined, got 0;'),
      body.message.slice(0, 120),
    );
    assert.ok(body.message.endsWith(`; and ${extra - 10} more`), body.message.slice(-60));
  }
  await stillServes();
});

Hostile('failures with huge keys and values are shortened: the 400 stays under 16 KiB', async () => {
  const key = '\u0001'.repeat(30_000);
  const reply = await post(strict.base, '/hostile/person', JSON.stringify({ name: 'x'.repeat(200_000), age: { deep: key }, [key]: key }));
  assert.is(reply.status, 400);
  assert.ok(Buffer.byteLength(reply.text) <= 16 * 1024, `${Buffer.byteLength(reply.text)} bytes`);
  const errors = reply.json().data.errors as { path: string; value: unknown }[];
  assert.is(errors.length, 2);
  assert.ok(
    errors.every((e) => e.path.length <= 160 && JSON.stringify(e.value).length <= 120),
    JSON.stringify(errors).slice(0, 300),
  );
  await stillServes();
});

Hostile('a 100,000-level nested array answers 400 before it is parsed, validated or described', async () => {
  const deep = '['.repeat(100_000) + ']'.repeat(100_000);
  for (const path of ['/hostile/person', '/hostile/any', '/hostile/json', '/hostile/parse']) {
    const reply = await post(strict.base, path, deep);
    assert.is(reply.status, 400, path);
    assert.equal(reply.json(), { error: 'Bad Request', message: 'JSON body is nested deeper than 64 levels (maxBodyDepth)' }, path);
  }
  const lenient = await post(shallow.base, '/hostile/any', deep);
  assert.is(lenient.status, 400, 'without strictValidation too: a limit, not a parse failure');
  await stillServes();
});

Hostile('a recursive body type 20,000 levels deep answers 400; a tree within the limit is validated', async () => {
  let deep = '{"value":1,"children":[]}';
  for (let i = 0; i < 10_000; i++) deep = `{"value":1,"children":[${deep}]}`;
  const reply = await post(strict.base, '/hostile/tree', deep);
  assert.is(reply.status, 400);
  assert.match(reply.json().message, /^JSON body is nested deeper than 64 levels/);
  let fine = '{"value":7,"children":[]}';
  for (let i = 0; i < 30; i++) fine = `{"value":7,"children":[${fine}]}`;
  assert.equal((await post(strict.base, '/hostile/tree', fine)).json(), { value: 7 });
  const wrong = await post(strict.base, '/hostile/tree', fine.replace('"value":7,"children":[]', '"value":"x","children":[]'));
  assert.is(wrong.status, 400);
  // a long path keeps its start and its failing end
  assert.match(
    wrong.json().message,
    /^Invalid request body: \$input(\.children\[0\])+\.chi?l?d?r?e?n?\.\.\.[\w[\].]*children\[0\]\.value expected number, got "x"$/,
    wrong.text,
  );
  await stillServes();
});

Hostile('maxBodyDepth is a createServer option; brackets inside strings do not count', async () => {
  assert.equal((await post(shallow.base, '/hostile/json', '[[[1]]]')).json(), { value: [[[1]]] });
  const deeper = await post(shallow.base, '/hostile/json', '[[[[1]]]]');
  assert.is(deeper.status, 400);
  assert.is(deeper.json().message, 'JSON body is nested deeper than 3 levels (maxBodyDepth)');
  const inString = await post(shallow.base, '/hostile/json', JSON.stringify({ text: '[[[[[[{{{{ \\" [[[[' }));
  assert.equal(inString.json(), { value: { text: '[[[[[[{{{{ \\" [[[[' } });
});

Hostile('req.json() and req.parseBody() on invalid JSON answer 400 Failed to parse JSON body', async () => {
  for (const path of ['/hostile/json', '/hostile/parse']) {
    const reply = await post(strict.base, path, '{"a":');
    assert.is(reply.status, 400, path);
    assert.match(reply.json().message, /^Failed to parse JSON body: /, path);
  }
});

Hostile('req.json() on an empty body answers 400; parseBody() gives undefined, as documented', async () => {
  const empty = await post(strict.base, '/hostile/json', '');
  assert.is(empty.status, 400);
  assert.equal(empty.json(), { error: 'Bad Request', message: 'Failed to parse JSON body: Unexpected end of JSON input' });
  assert.equal((await post(strict.base, '/hostile/parse', '')).json(), { value: null });
  const inProcess = await strict.app.fetch(new Request('http://localhost/hostile/json', { method: 'POST', body: '' }));
  assert.is(inProcess.status, 400);
});

Hostile.run();
