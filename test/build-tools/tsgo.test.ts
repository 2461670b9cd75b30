// TypeScript 7 (the native compiler, `tsgo`; the `typescript-7` devDependency alias) on the
// fixture app in both parameter forms. Its language server loads no plugins, so an editor on TS 7
// shows TS1206 on every parameter decorator; the type-level form (fixtures/app-type-level) must
// type-check clean, with `tsc --noEmit` and in the language server. The decorator form (fixtures/app)
// is the control that proves both checks can fail.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureProject, root, run, type FixtureProject, type Ran } from './support/fixture-project.js';
import { LanguageServer, type LspDiagnostic } from './support/language-server.js';

const tsgo = join(root, 'node_modules', 'typescript-7', 'bin', 'tsc');
let typeLevel: FixtureProject;
let decorated: FixtureProject;
/** Each check's run, started side by side in `before` (tsgo is quick; starting it is most of the time). */
let noEmit: { typeLevel: Promise<Ran>; decorated: Promise<Ran> };
let editor: { typeLevel: Promise<Map<string, LspDiagnostic[]>>; decorated: Promise<Map<string, LspDiagnostic[]>> };

test.before(() => {
  typeLevel = fixtureProject('app-type-level');
  decorated = fixtureProject('app');
  const check = (project: FixtureProject) => run(tsgo, ['--noEmit', '-p', project.dir, '--pretty', 'false'], project.dir);
  noEmit = { typeLevel: check(typeLevel), decorated: check(decorated) };
  editor = { typeLevel: editorDiagnostics(typeLevel), decorated: editorDiagnostics(decorated) };
  // Awaited by the tests; a rejection here must not go unhandled before they run.
  for (const pending of [...Object.values(noEmit), ...Object.values(editor)]) pending.catch(() => {});
});

test.after(() => {
  typeLevel.remove();
  decorated.remove();
});

test('the native compiler is TypeScript 7', async () => {
  const ran = await run(tsgo, ['--version'], root);
  assert.match(ran.output, /^Version 7\./);
});

test('tsgo --noEmit reports nothing on the type-level form', async () => {
  const ran = await noEmit.typeLevel;
  assert.is(ran.output, '');
  assert.is(ran.code, 0);
});

test('control: tsgo --noEmit reports TS1206 on each parameter decorator of the decorator form, and nothing else', async () => {
  const ran = await noEmit.decorated;
  assert.is.not(ran.code, 0);
  const errors = ran.output.trim().split('\n');
  assert.ok(errors.length >= 8, ran.output);
  for (const error of errors) assert.match(error, /^src\/items-controller\.ts\(\d+,\d+\): error TS1206: Decorators are not valid here\./);
});

/** The diagnostics tsgo's language server gives an editor that opens each file of a fixture's src/. */
async function editorDiagnostics(project: FixtureProject): Promise<Map<string, LspDiagnostic[]>> {
  const server = new LanguageServer(tsgo, ['--lsp', '--stdio'], project.dir);
  try {
    const initialized = await server.initialize(project.dir);
    assert.ok(initialized.capabilities.diagnosticProvider, 'the server offers pull diagnostics');
    const found = new Map<string, LspDiagnostic[]>();
    for (const name of ['items-controller.ts', 'decorators.ts', 'greeter.ts', 'model.ts', 'app.ts', 'main.ts']) {
      const uri = server.open(join(project.dir, 'src', name));
      found.set(name, await server.diagnostics(uri));
    }
    return found;
  } finally {
    await server.stop();
  }
}

test("tsgo's language server shows no TS1206 (and no other error) in the type-level form", async () => {
  const found = await editor.typeLevel;
  for (const [name, diagnostics] of found) assert.equal(diagnostics, [], name);
});

test("control: tsgo's language server shows TS1206 on the decorator form's parameter decorators", async () => {
  const found = await editor.decorated;
  const controller = found.get('items-controller.ts')!;
  const lines = controller.filter((d) => d.code === 1206).map((d) => d.range.start.line + 1);
  // One TS1206 per parameter decorator of the file, on its line (and nothing else).
  const decorators = readFileSync(join(decorated.dir, 'src', 'items-controller.ts'), 'utf8')
    .split('\n')
    .flatMap((text, index) => [...text.matchAll(/\(@|, @/g)].map(() => index + 1));
  assert.ok(decorators.length >= 8);
  assert.equal(lines, decorators);
  // Errors (severity 1): the TS1206s only. (The imports those decorators use are also hinted as unused.)
  const errors = controller.filter((d) => d.severity === 1);
  assert.equal(errors.length, lines.length, JSON.stringify(errors));
});

test.run();
