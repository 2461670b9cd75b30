// The type-level form in the pipeline's middle stages: the same controller written with parameter
// decorators and with type-level sources (fixtures/type-level/pairs.ts) must give the same model,
// the same binders and the same OpenAPI description. Runs the analysis in process.
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
const { buildOpenApiDocument } = require(join(root, 'dist', 'transformer', 'openapi', 'openapi-document.cjs'));
const { loadTypiaCore } = require(join(root, 'dist', 'transformer', 'openapi', 'type-schemas.cjs'));

const project = join(fixturesDir, 'type-level');
const tk = fixtureToolkit(project);
const model = analyseProgram(tk);
const file = model.files.get(join(project, 'pairs.ts').replace(/\\/g, '/'));

interface Method {
  className: string;
  methodName: string;
  kind: string;
  routes: { method: string; path: string }[];
  parameters: ({ typeText: string } | undefined)[];
}
const methodOf = (className: string, methodName: string): Method =>
  file.methods.find((m: Method) => m.className === className && m.methodName === methodName);
/** A method's model without what only names the form: the class, the line, the annotation as written, the controller's path. */
const comparable = (method: Method) => ({
  kind: method.kind,
  routes: method.routes.map((r) => ({ method: r.method, path: r.path.replace(/^\/(decorated|type-level)/, '') })),
  parameters: method.parameters.map((p) => (p === undefined ? undefined : { ...p, typeText: undefined })),
});

test('the type-level form analyses without diagnostics', () => {
  assert.equal(
    model.diagnostics.map((d: ts.Diagnostic) => ts.flattenDiagnosticMessageText(d.messageText, ' ')),
    [],
  );
});

for (const methodName of ['get', 'user', 'create']) {
  test(`${methodName}: both forms give the same parameter models`, () => {
    const decorated = methodOf('Decorated', methodName);
    const typeLevel = methodOf('TypeLevel', methodName);
    assert.ok(decorated.parameters.length > 1);
    assert.equal(comparable(typeLevel), comparable(decorated));
  });
}

test("a class middleware's use() reads a type-level header like a decorated one", () => {
  assert.equal(comparable(methodOf('TypeLevelGuard', 'use')), comparable(methodOf('DecoratedGuard', 'use')));
});

test('a type-level parameter is described by its value type (number, not Param<number>)', () => {
  assert.equal(
    methodOf('TypeLevel', 'get').parameters.map((p) => p?.typeText),
    ['number', 'string[]', 'string', 'Sort', 'number[]', 'Date', 'boolean', "'a' | 'b'"],
  );
});

test('both forms inject the same dependencies: a token into the constructor, a class into a handler', () => {
  const plan = (className: string) => {
    const found = file.injections.find((i: { className: string }) => i.className === className);
    return {
      constructorParameters: found.constructorParameters.map((d: { expression: string }) => d.expression),
      handlers: found.handlers.user.map((d: { expression: string }) => d.expression),
    };
  };
  assert.equal(plan('TypeLevel'), { constructorParameters: ['PREFIX'], handlers: ['Clock'] });
  assert.equal(plan('TypeLevel'), plan('Decorated'));
});

test('emit writes the same binders for both forms', () => {
  const code: string = emitFileCode(file, '@kiln/core/binding', false).text;
  const binder = (className: string, methodName: string) => {
    const found = new RegExp(`^(?:async )?function kiln\\$bind_${className}_${methodName}\\([\\s\\S]*?^}`, 'm').exec(code);
    assert.ok(found, `${className}.${methodName} has a binder:\n${code}`);
    return found![0].replace(`_${className}_`, '_').replace(/\s*\/\/.*$/gm, '');
  };
  for (const methodName of ['get', 'user', 'create']) assert.equal(binder('TypeLevel', methodName), binder('Decorated', methodName));
});

test('the OpenAPI document describes both forms the same way', () => {
  const typia = loadTypiaCore(root);
  const { document, diagnostics } = buildOpenApiDocument({ tk, program: model, typia, head: { info: { title: 'pairs', version: '1' } } });
  assert.equal(diagnostics, []);
  const operation = (form: string, path: string, method: string) => {
    const { operationId: _id, tags: _tags, ...rest } = document.paths[`/${form}${path}`][method];
    return rest;
  };
  for (const [path, method] of [
    ['/items/{id}', 'get'],
    ['/users/{user_id}', 'get'],
    ['/notes', 'post'],
  ] as const) {
    const typeLevel = operation('type-level', path, method);
    assert.ok(JSON.stringify(typeLevel).length > 50, `${path} is described`);
    assert.equal(typeLevel, operation('decorated', path, method), path);
  }
  const names = operation('type-level', '/items/{id}', 'get').parameters.map((p: { in: string; name: string }) => `${p.in}:${p.name}`);
  assert.equal(names, ['path:id', 'query:tags', 'header:x-tenant', 'query:sort', 'query:sizes', 'query:since', 'query:flag', 'query:mode']);
});

test.run();
