// Build-time side of typed body validation: fixtures compiled with the real tspc. Without typia's
// transformer a typed body is KILN110; with it, bodies that cannot be validated are KILN111
// (type not nameable from module scope) and KILN112 (a Date, bigint, function... in a JSON body). Each
// `// expect: KILNnnn` marker must be reported at its line, and nothing else. A CommonJS module
// gets a working validator too.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createServer, type ControllerClass } from '@kiln/core';
import { assertMarkersReported, fixtureBuilds } from './support/compile-fixture.js';

const compile = fixtureBuilds('body-validation');

test('without typia in plugins, each typed body fails the build with KILN110 at its line (any/unknown bodies do not)', async () => {
  assertMarkersReported(await compile('no-typia'));
});

test('KILN110 says exactly what to add to tsconfig.json', async () => {
  const { compiled } = await compile('no-typia');
  assert.match(
    compiled.output,
    `app.ts(11,24): error TS9110: KILN110: @Body() user: NewUser is validated by a typia validator generated at build time (typia is needed for object and array body types and for typia tags; ` +
      "a string, number, boolean, literal union or enum needs none), but typia's transformer is not configured: " +
      `add { "transform": "typia/lib/transform" } after @kiln/core/transformer's entry in compilerOptions.plugins (and npm install typia), or declare the body unknown to leave it unvalidated`,
  );
  assert.match(compiled.output, "app.ts(16,30): error TS9110: KILN110: @Body('tags') tags: string[] is validated by a typia validator");
  assert.not.match(compiled.output, "@Body('name') name: string", 'a scalar field needs no typia');
});

test('with typia: a Date in a body is KILN112 and a body type module scope cannot name is KILN111, each at its line', async () => {
  assertMarkersReported(await compile('diagnostics'));
});

test('KILN112 names the path of the Date (or bigint, function...) and suggests a date-time string', async () => {
  const { compiled } = await compile('diagnostics');
  assert.match(
    compiled.output,
    "KILN112: JSON has no dates: 'events[].when' in @Body() schedule: Schedule is a Date, which a request body can never carry; declare it string & tags.Format<'date-time'>",
  );
  assert.match(compiled.output, "KILN112: JSON has no dates: @Body('at') at: Date is a Date");
  assert.match(
    compiled.output,
    "KILN112: JSON cannot carry a bigint: 'id' in @Body() counter: { id: bigint; onChange?: () => void } is a bigint",
  );
  assert.match(
    compiled.output,
    'KILN111: @Body() event: { title: string } cannot be validated: its class Local is declared inside a function or block',
  );
});

test('KILN112 reports every non-JSON place of one body in the same build', async () => {
  const { reported } = await compile('diagnostics');
  assert.equal(
    reported.filter((r) => r.line === 31).map((r) => r.message),
    [
      "KILN112: JSON cannot carry a bigint: 'id' in @Body() counter: { id: bigint; onChange?: () => void } is a bigint, which a request body can never carry; declare the JSON form (a string, a number, an array or a plain object) and convert it in the handler",
      "KILN112: JSON cannot carry a function: 'onChange' in @Body() counter: { id: bigint; onChange?: () => void } is a function, which a request body can never carry; declare the JSON form (a string, a number, an array or a plain object) and convert it in the handler",
    ],
  );
});

test('KILN114: a tagged parameter on a method module scope cannot name', async () => {
  const { compiled } = await compile('diagnostics');
  assert.match(
    compiled.output,
    "KILN114: @Query('n') n: number & tags.Minimum<1> cannot be checked against its typia tags (Minimum<1>): its class Local is declared inside a function or block",
  );
});

test('a CommonJS module validates its typed body, requiring only typia helpers', async () => {
  const { compiled } = await compile('commonjs');
  assert.is(compiled.exitCode, 0, compiled.output);
  const js = readFileSync(join(compiled.outDir, 'app.cjs'), 'utf8');
  assert.not.match(js, 'kiln$typia', 'typia is declared for the checker, never loaded whole');
  assert.match(js, 'require("typia/lib/internal/');
  const { Orders } = createRequire(import.meta.url)(join(compiled.outDir, 'app.cjs')) as { Orders: ControllerClass };
  const app = createServer({ controllers: [Orders], strictValidation: true });
  const post = (body: unknown) =>
    app.fetch(
      new Request('http://localhost/orders', {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      }),
    );
  const ok = await post({ sku: 'ABC-1', quantity: 2 });
  assert.equal([ok.status, await ok.json()], [200, { sku: 'ABC-1', quantity: 2 }]);
  const bad = await post({ sku: 'abc', quantity: 0 });
  assert.is(bad.status, 400);
  assert.equal(((await bad.json()) as { data: unknown }).data, {
    errors: [
      { path: '$input.sku', expected: 'string & Pattern<"^[A-Z]{3}-[0-9]+$">', value: 'abc' },
      { path: '$input.quantity', expected: 'number & Minimum<1>', value: 0 },
    ],
  });
});

test("typia's own error about a body type is reported on the parameter's type, not in generated code", async () => {
  const { compiled } = await compile('typia-error');
  assert.is.not(compiled.exitCode, 0);
  assert.match(compiled.output, /app\.ts\(7,32\): error TS\(kiln\$typia\.createValidateEquals\): unsupported type detected/);
  assert.match(compiled.output, 'number & Format<"email">');
});

test('with KILN110 disabled, typed bodies build without typia and pass through unchecked', async () => {
  const { compiled } = await compile('disabled');
  assert.is(compiled.exitCode, 0, compiled.output);
  const { Users } = (await import(pathToFileURL(join(compiled.outDir, 'app.js')).href)) as { Users: ControllerClass };
  const app = createServer({ controllers: [Users], strictValidation: true });
  const reply = await app.fetch(
    new Request('http://localhost/users', { method: 'POST', body: '{"name":1}', headers: { 'content-type': 'application/json' } }),
  );
  assert.equal([reply.status, await reply.json()], [200, { name: 1 }]);
});

test('uploads: a File outside a top-level property is KILN112, and a File that is not the web one (no DOM lib) is KILN117', async () => {
  const build = await compile('uploads');
  assertMarkersReported(build);
  const { output } = build.compiled;
  assert.match(output, "KILN117: @Body() form: Profile has files, read from multipart/form-data, and its File is Node's (@types/node)");
  assert.match(output, 'add "DOM" to compilerOptions.lib');
  assert.match(
    output,
    "KILN112: A File is one part of a multipart/form-data body: 'meta.picture' in @Body() form: Nested is a File where no part can be",
  );
  assert.match(
    output,
    "KILN112: A File is one part of a multipart/form-data body: @Body('avatar') avatar: File is a File where no part can be",
  );
});

test.run();
