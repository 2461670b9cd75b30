// Build-time side of typed responses: fixtures compiled with the real tspc. A bigint in a return
// type is KILN150 at the handler's name; `typedResponses` without typia in plugins is KILN151;
// 'assert' checks each value against its type (a 500 when it does not match); `false`, or no typia
// at all, keeps JSON.stringify for every route.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import kiln from '@kiln/core/esbuild';
import { createServer, type ControllerClass, type KilnRequest } from '@kiln/core';
import { assertMarkersReported, fixtureBuilds, fixturesDir } from './support/compile-fixture.js';

const fixtures = join(fixturesDir, 'serializer');

const compile = fixtureBuilds('serializer');

async function itemsApp(name: string): Promise<{ get(path: string): Promise<{ status: number; text: string }>; logged: unknown[] }> {
  const { compiled } = await compile(name);
  assert.is(compiled.exitCode, 0, compiled.output);
  const { Items } = (await import(pathToFileURL(join(compiled.outDir, 'app.js')).href)) as { Items: ControllerClass };
  const logged: unknown[] = [];
  const app = createServer({
    controllers: [Items],
    onError: (error: unknown, _req: KilnRequest) => {
      logged.push(error);
    },
  });
  return {
    logged,
    async get(path) {
      const reply = await app.fetch(new Request(`http://localhost${path}`));
      return { status: reply.status, text: await reply.text() };
    },
  };
}

test('a bigint anywhere in a return type (declared, inferred, awaited, in a union) is KILN150 at the handler', async () => {
  assertMarkersReported(await compile('diagnostics'));
});

test('KILN150 names the path of the bigint and says what to return instead', async () => {
  const { compiled } = await compile('diagnostics');
  assert.match(
    compiled.output,
    "app.ts(8,3): error TS9150: KILN150: one returns a bigint ('id' in the return type), which JSON cannot carry (JSON.stringify throws on it): return it as a string (value.toString()) or a number, and declare the return type so",
  );
  assert.match(compiled.output, "KILN150: list returns a bigint ('items[].id' in the return type)");
  assert.match(compiled.output, 'KILN150: maybe returns a bigint (the return type)');
});

test('typedResponses without typia in plugins is KILN151, which says what to add', async () => {
  const build = await compile('no-typia-explicit');
  assertMarkersReported(build);
  assert.match(
    build.compiled.output,
    'KILN151: "typedResponses" is set in the @kiln/core/transformer entry, and typed responses are written by typia: add { "transform": "typia/lib/transform" }',
  );
});

test("typedResponses 'assert': a value that matches its type is filtered and sent; one that does not answers 500 and is reported", async () => {
  const app = await itemsApp('assert');
  assert.equal(await app.get('/items'), { status: 200, text: '{"id":1,"name":"ok"}' });
  const broken = await app.get('/items?broken=true');
  assert.is(broken.status, 500);
  assert.equal(JSON.parse(broken.text), { error: 'Internal Server Error', message: 'Internal Server Error' });
  assert.is(app.logged.length, 1);
  const error = app.logged[0] as Error & { code?: string };
  assert.is(error.code, 'KILN047');
  assert.match(
    error.message,
    /^Items\.get \(GET \/items\): the return value does not fit its declared type at \$input\.name \(expected string\)$/,
  );
});

test('a part that cannot be filtered is a KILN152 warning at its declaration; the build succeeds and filters the rest', async () => {
  const { compiled } = await compile('warnings');
  assert.is(compiled.exitCode, 0, compiled.output);
  const warned = [...compiled.output.matchAll(/^(?:.*\/)?app\.ts\((\d+),\d+\): warning TS9152: KILN152: (.*)$/gm)].map((m) => Number(m[1]));
  const source = readFileSync(join(fixtures, 'warnings', 'app.ts'), 'utf8').split('\n');
  const expected = source.flatMap((line, i) => (line.includes('// warn: KILN152') ? [i + 1] : []));
  assert.equal(
    [...new Set(warned)].sort((a, b) => a - b),
    expected,
    compiled.output,
  );
  assert.is(warned.length, expected.length, 'each place is reported once, though two routes return Item');
  assert.match(
    compiled.output,
    "KILN152: 'meta' in the return value of Items.get is object, which cannot be filtered: it is sent as it is, every property it holds included",
  );
  assert.match(
    compiled.output,
    "KILN152: 'byName[string]' in the return value of Items.get is unknown, which cannot be filtered: it is sent as it is",
  );
  assert.not.match(compiled.output, 'counts', 'an index signature of a declared type is filtered: no warning');
  const app = await itemsApp('warnings');
  assert.equal(await app.get('/items/stub'), { status: 200, text: '{"things":[]}' });
  const item = await app.get('/items');
  assert.is(item.status, 200);
  assert.is(
    item.text,
    '{"id":1,"meta":{},"extra":{},"byName":{},"data":null,"price":"0.01","at":"1970-01-01T00:00:00.000Z","tags":[],"counts":{"a":{"n":1}}}',
  );
});

test('the esbuild plugin reports the same KILN152 warnings as esbuild warnings, and builds', async () => {
  const project = join(fixtures, 'warnings');
  const result = await build({
    entryPoints: [join(project, 'app.ts')],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
    plugins: [kiln({ tsconfig: join(project, 'tsconfig.json') })],
  });
  assert.is(result.errors.length, 0);
  const lines = result.warnings.filter((w) => w.text.startsWith('KILN152: ')).map((w) => w.location?.line);
  assert.equal(lines, [10, 11, 12, 13, 14, 34, 38]);
});

test('typedResponses false: every value is sent whole with JSON.stringify, typia configured or not', async () => {
  for (const name of ['off', 'no-typia']) {
    const app = await itemsApp(name);
    assert.equal(await app.get('/items'), { status: 200, text: '{"id":1,"name":"ok","secret":"s"}' }, name);
    const js = readFileSync(join((await compile(name)).compiled.outDir, 'app.js'), 'utf8');
    assert.not.match(js, 'kiln$serialize', name);
  }
});

test("'assert' checks with typia code imported from typia/lib/internal (never typia whole), then projects", async () => {
  const { compiled } = await compile('assert');
  const js = readFileSync(join(compiled.outDir, 'app.js'), 'utf8');
  assert.match(js, /const kiln\$serialize_0 = kiln\$b\.assertingSerializer\(/);
  assert.match(js, 'kiln$b.projectingSerializer(');
  assert.match(js, 'kiln$b.compiledSerializer(kiln$serialize_0)');
  assert.match(js, 'from "typia/lib/internal/');
  assert.not.match(js, /kiln\$typia\.\w+\(/, 'the call was replaced by typia');
  assert.not.match(js, /from ['"]typia['"]/);
});

test.run();
