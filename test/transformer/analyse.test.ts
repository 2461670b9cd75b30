// The pipeline's middle stage on its own: analyse turns decorated methods into plain data that
// emit writes from. Run on the editor fixture, whose program keeps its decorators.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';
import { fixturesDir, root } from './support/compile-fixture.js';

const require = createRequire(import.meta.url);
const { analyseProgram } = require(join(root, 'dist', 'transformer', 'analyse', 'analyse-program.cjs'));
const { emitFileCode } = require(join(root, 'dist', 'transformer', 'emit', 'binder-emitter.cjs'));

const project = join(fixturesDir, 'editor');
const parsed = ts.getParsedCommandLineOfConfigFile(
  join(project, 'tsconfig.json'),
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
)!;
const program = ts.createProgram(parsed.fileNames, parsed.options);
const model = analyseProgram({ ts, program, checker: program.getTypeChecker() });
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

test.run();
