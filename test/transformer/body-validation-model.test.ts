// The analyse and emit stages for typed bodies on their own: which @Body parameters get a
// validator, how generated code names their type, and what the generated tail declares. Run on
// the body-validation diagnostics fixture (typia configured), whose program keeps its decorators.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fixturesDir, root } from './support/compile-fixture.js';
import { fixtureToolkit } from './support/fixture-program.js';

const require = createRequire(import.meta.url);
const { analyseProgram } = require(join(root, 'dist', 'transformer', 'analyse', 'analyse-program.cjs'));
const { emitFileCode } = require(join(root, 'dist', 'transformer', 'emit', 'binder-emitter.cjs'));
const { typiaConfigured } = require(join(root, 'dist', 'transformer', 'analyse', 'body-validation.cjs'));

const project = join(fixturesDir, 'body-validation', 'diagnostics');
const tk = fixtureToolkit(project);
const { program } = tk;
const model = analyseProgram(tk);
const app = model.files.get(join(project, 'app.ts').replace(/\\/g, '/'));

interface Parameter {
  parameterName: string;
  validation?: { typeQuery: string; path: string; site: { start: number; end: number } };
}
interface Method {
  className: string;
  methodName: string;
  parameters: (Parameter | undefined)[];
}
const method = (className: string, methodName: string): Method =>
  app.methods.find((m: Method) => m.className === className && m.methodName === methodName);

test('a typed @Body(field) is validated at $input.<field>, through a type query on its method', () => {
  const { typeQuery, path, site } = method('Events', 'stringDate').parameters[0]!.validation!;
  assert.equal({ typeQuery, path }, { typeQuery: "Parameters<Events['stringDate']>[0]", path: '$input.at' });
  assert.is(
    program.getSourceFile(join(project, 'app.ts'))!.text.slice(site.start, site.end),
    "string & tags.Format<'date-time'>",
    'the site is the declared type',
  );
});

test('a static route is refused (KILN116), not modelled; a class assigned to a top-level const is named through typeof', () => {
  const statics = app.methods.filter((m: Method) => m.className === 'Events' && m.methodName === 'create');
  assert.equal(
    statics.map((m: Method) => m.parameters[0]?.validation?.typeQuery),
    [undefined],
  );
  assert.is(
    method('AnonymousClass', 'create').parameters[0]!.validation!.typeQuery,
    "Parameters<(typeof Expression)['prototype']['create']>[0]",
  );
});

test('unknown bodies and bodies in error get no validation', () => {
  assert.is(method('Local', 'unknown').parameters[0]!.validation, undefined);
  assert.is(method('Local', 'create').parameters[0]!.validation, undefined);
  assert.is(method('Events', 'schedule').parameters[0]!.validation, undefined);
});

test('emit declares typia for the checker (no import) and writes one validator per body type', () => {
  const code = emitFileCode(app, '@kiln/core/binding', false);
  assert.match(code.text, "declare const kiln$typia: typeof import('typia').default;");
  assert.not.match(code.text, "from 'typia'");
  assert.match(code.text, "const kiln$validate_0 = kiln$typia.createValidateEquals<Parameters<Events['stringDate']>[0]>();");
  assert.match(
    code.text,
    "kiln$b.validateBody(kiln$b.required(kiln$b.bodyField(body, 'at'), 'at', strict), strict, kiln$validate_0, '$input.at'), // at: string & tags.Format<'date-time'> ← body 'at'",
  );
});

test("typia's transformer is recognised as written or as a resolved path", () => {
  assert.ok(typiaConfigured({ plugins: [{ transform: '@kiln/core/transformer' }, { transform: 'typia/lib/transform' }] }));
  assert.ok(typiaConfigured({ plugins: [{ transform: '/app/node_modules/typia/lib/transform.js' }] }));
  assert.not.ok(typiaConfigured({ plugins: [{ transform: '@kiln/core/transformer', transformProgram: true }] }));
  assert.not.ok(typiaConfigured({ plugins: [{ name: 'typia/lib/transform' }] }));
  assert.not.ok(typiaConfigured({}));
});

test.run();
