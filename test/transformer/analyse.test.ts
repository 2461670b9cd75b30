// The pipeline's middle stage on its own: analyse turns decorated methods into plain data that
// emit writes from. Run on the editor fixture, whose program keeps its decorators.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';
import { fixturesDir, root } from './support/compile-fixture.js';
import { fixtureToolkit } from './support/fixture-program.js';

const require = createRequire(import.meta.url);
const { analyseProgram } = require(join(root, 'dist', 'transformer', 'analyse', 'analyse-program.cjs'));
const { emitFileCode } = require(join(root, 'dist', 'transformer', 'emit', 'binder-emitter.cjs'));
const { compileProgram } = require(join(root, 'dist', 'transformer', 'program', 'program-transformer.cjs'));

const project = join(fixturesDir, 'editor');
const tk = fixtureToolkit(project);
const { program } = tk;
const model = analyseProgram(tk);
const app = model.files.get(join(project, 'app.ts').replace(/\\/g, '/'));

test('only files with Kiln parameter decorators have a file model', () => {
  assert.equal(
    [...model.files.keys()].map((f: string) => f.split('/').pop()),
    ['app.ts'],
  );
});

test('a route method becomes plain data: routes and one model per parameter', () => {
  const get = app.methods.find((m: { methodName: string }) => m.methodName === 'get');
  assert.equal(JSON.parse(JSON.stringify(get)), {
    className: 'EditorController',
    methodName: 'get',
    kind: 'route',
    routes: [{ method: 'GET', path: '/editor/:id' }],
    parameters: [
      { index: 0, parameterName: 'id', source: 'param', key: 'id', conversion: { kind: 'number' }, required: false, typeText: 'number' },
      { index: 1, parameterName: 'q', source: 'query', key: 'q', conversion: { kind: 'text' }, required: true, typeText: 'string' },
      { index: 2, parameterName: 'ip', source: 'request', key: 'ip', conversion: { kind: 'raw' }, required: false, typeText: 'string' },
    ],
    line: 12,
    nameEnd: get.nameEnd,
  });
});

test('a parameter in error is a hole in the model, and its diagnostic names the code', () => {
  const other = app.methods.find((m: { methodName: string }) => m.methodName === 'other');
  assert.equal(
    other.parameters.map((p: unknown) => p === undefined),
    [false, true],
  );
  assert.equal(
    model.diagnostics.map((d: ts.Diagnostic) => ts.flattenDiagnosticMessageText(d.messageText, ' ').slice(0, 7)),
    ['KILN101', 'KILN102'],
  );
});

test('emit writes one straight-line binder per method from the model', () => {
  const code = emitFileCode(app, '@kiln/core/binding', false);
  assert.match(code.text, "import * as kiln$b from '@kiln/core/binding';");
  assert.match(
    code.text,
    [
      '/** GET /editor/:id → EditorController.get (app.ts:12) */',
      'function kiln$bind_EditorController_get(req: kiln$b.KilnRequest, strict: boolean): unknown[] {',
      '  return [',
      "    kiln$b.toNumber(req.params['id'], 'id', strict), // id: number ← param 'id'",
      "    kiln$b.toText(kiln$b.required(req.query['q'], 'q', strict)), // q: string ← query 'q'",
      "    req['ip'], // ip: string ← request.ip",
      '  ];',
      '}',
    ].join('\n'),
  );
  assert.match(code.text, 'undefined, // not bound: see the KILN error reported for this parameter');
  assert.equal([...code.binders.values()], ['kiln$bind_EditorController_get', 'kiln$bind_EditorController_other']);
});

test('unchecked binders are plain JavaScript, in the rewritten text but not among its checked statements', () => {
  const code = emitFileCode(app, '@kiln/core/binding', false, { uncheckedBinders: true });
  assert.match(code.text, 'function kiln$bind_EditorController_get(req, strict) {');
  assert.not.match(code.text, ': unknown[]');
  assert.equal([...code.uncheckedBinders], ['kiln$bind_EditorController_get', 'kiln$bind_EditorController_other']);
  // What only the binders read stays referenced for noUnusedLocals, and no binder name is (the checker never declares them).
  assert.match(code.text, /void \[kiln\$b[^\]]*\];/);
  assert.not.match(/void \[[^\]]*\];/.exec(code.text)![0], 'kiln$bind_');

  const compiled = compileProgram({ ts, program, config: {}, binderOptions: { uncheckedBinders: true } });
  const file: ts.SourceFile = compiled.program.getSourceFile(app.fileName);
  assert.match(file.text, 'function kiln$bind_EditorController_get(req, strict) {');
  const functions = file.statements.filter(ts.isFunctionDeclaration).map((f) => f.name!.text);
  assert.not.ok(
    functions.some((name) => name.startsWith('kiln$bind_')),
    functions.join(', '),
  );
  // The rest of the file is checked as written: the checker reports the user's errors at their positions, none in generated code.
  const generatedStart = compiled.plans.get(app.fileName).generatedStart;
  const errors = compiled.program.getSemanticDiagnostics(file).filter((d: ts.Diagnostic) => d.start! >= generatedStart);
  assert.equal(
    errors.map((d: ts.Diagnostic) => ts.flattenDiagnosticMessageText(d.messageText, ' ')),
    [],
  );
});

test.run();
