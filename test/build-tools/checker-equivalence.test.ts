// Kiln's analysis over two checkers (transformer/checker/): TypeScript 6's program and TypeScript
// 7's native checker through `typescript/unstable/sync`, on the same TypeScript 6 syntax trees.
// Run over the build-tools fixtures (the app in each parameter form, the broken app) in a
// TypeScript 7 project, both give the same file models
// (binders, DI plans), the same KILN diagnostics at the same file:line, the same typed-response
// decisions and the same OpenAPI document.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';
import { fixtureProject, root, type FixtureProject } from './support/fixture-project.js';

const require = createRequire(import.meta.url);
const dist = (path: string) => require(join(root, 'dist', 'transformer', path));
const { analyseProgram } = dist('analyse/analyse-program.cjs');
const { analyseResponses } = dist('analyse/return-type.cjs');
const { generateOpenApi } = dist('openapi/openapi-generation.cjs');
const { openTypeScript7Checker } = dist('checker/typescript-7-checker.cjs');
const sync = await import(join(root, 'node_modules', 'typescript-7', 'dist', 'api', 'sync', 'api.js'));
const ast = await import(join(root, 'node_modules', 'typescript-7', 'dist', 'ast', 'index.js'));

interface Analysis {
  readonly models: unknown;
  readonly diagnostics: string[];
  readonly responses: unknown;
  readonly responseDiagnostics: string[];
  readonly openapi: unknown;
}

/** Plain data for comparing: Maps as entries, TypeScript diagnostics as `file:line KILNnnn message`. */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_key, v) => (v instanceof Map ? [...v.entries()] : v)));
}
function located(diagnostics: readonly ts.Diagnostic[]): string[] {
  return diagnostics.map((d) => {
    const line = d.file === undefined ? 0 : d.file.getLineAndCharacterOfPosition(d.start!).line + 1;
    return `${d.file?.fileName.split('/').slice(-2).join('/')}:${line} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}

function analyse(program: ts.Program, checker: unknown, dir: string): Analysis {
  const tk = { ts, program, checker };
  const model = analyseProgram(tk);
  const responses = analyseResponses(tk, undefined);
  // The OpenAPI document: schemas from TypeScript 6's checker (typia's metadata needs all of it), routes and parameters from this model.
  const openapi = generateOpenApi(
    { ts, program, checker: program.getTypeChecker() },
    model,
    { output: join(dir, `openapi-${checker === program.getTypeChecker() ? 6 : 7}.json`), info: { title: 'fixture', version: '1' } },
    dir,
  );
  return {
    models: plain(model.files),
    diagnostics: located(model.diagnostics),
    responses: plain(responses.files),
    responseDiagnostics: located([...responses.diagnostics, ...responses.warnings]),
    openapi: plain(openapi.document ?? openapi.diagnostics.map((d: ts.Diagnostic) => d.messageText)),
  };
}

function bothCheckers(name: string): { six: Analysis; seven: Analysis; project: FixtureProject } {
  const project = fixtureProject(name, { typescript: 7 });
  const tsconfig = join(project.dir, 'tsconfig.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  const six = analyse(program, program.getTypeChecker(), project.dir);
  const opened = openTypeScript7Checker(ts, program, sync, ast, tsconfig);
  try {
    return { six, seven: analyse(program, opened.checker, project.dir), project };
  } finally {
    opened.close();
  }
}

for (const fixture of ['app', 'app-type-level']) {
  test(`the ${fixture} fixture: the same models (binders, DI plans), typed-response decisions and OpenAPI document from TypeScript 6 and 7`, () => {
    const { six, seven, project } = bothCheckers(fixture);
    try {
      assert.ok((six.models as unknown[]).length >= 2, 'the fixture has Kiln files');
      assert.equal(seven.models, six.models);
      assert.equal(seven.diagnostics, six.diagnostics);
      assert.equal(seven.diagnostics, []);
      assert.equal(seven.responses, six.responses);
      assert.equal(seven.responseDiagnostics, six.responseDiagnostics);
      assert.equal(seven.openapi, six.openapi);
    } finally {
      project.remove();
    }
  });
}

test('the broken fixture: the same KILN diagnostics at the same file:line from TypeScript 6 and 7', () => {
  const { six, seven, project } = bothCheckers('broken-app');
  try {
    assert.ok(six.diagnostics.length > 0);
    assert.equal(seven.diagnostics, six.diagnostics);
    assert.equal(seven.models, six.models);
  } finally {
    project.remove();
  }
});

test.run();
