// Editors see the typed-body build errors too: the tsserver plugin (@kiln/core/transformer/editor),
// driven through the language service API, reports KILN110 where the build would.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';
import { fixturesDir, root } from './support/compile-fixture.js';
import { languageServiceFor } from './support/language-service.js';

type PluginFactory = (modules: { typescript: typeof ts }) => { create(info: ts.server.PluginCreateInfo): ts.LanguageService };
const plugin = createRequire(import.meta.url)(join(root, 'dist', 'transformer', 'editor', 'plugin.cjs')) as PluginFactory;

function editorFor(project: string): ts.LanguageService {
  return plugin({ typescript: ts }).create({
    languageService: languageServiceFor(project),
    config: {},
  } as unknown as ts.server.PluginCreateInfo);
}

function reported(project: string): string[] {
  const file = join(project, 'app.ts');
  const editor = editorFor(project);
  const source = editor.getProgram()!.getSourceFile(file)!;
  return editor
    .getSemanticDiagnostics(file)
    .filter((d) => d.source === 'kiln' || d.code === 1206)
    .map((d) => {
      const line = source.getLineAndCharacterOfPosition(d.start!).line + 1;
      return `${line} ${ts.flattenDiagnosticMessageText(d.messageText, ' ').slice(0, 7)}`;
    });
}

test('without typia in plugins, the editor shows KILN110 on each typed body (and no TS1206 on the decorators)', () => {
  assert.equal(reported(join(fixturesDir, 'body-validation', 'no-typia')), ['11 KILN110', '16 KILN110']);
});

test('with typia, the editor shows KILN111 and KILN112 where the build reports them', () => {
  assert.equal(reported(join(fixturesDir, 'body-validation', 'diagnostics')), [
    '16 KILN112',
    '21 KILN112',
    '26 KILN112',
    '31 KILN112',
    '31 KILN112',
    '41 KILN111',
    '45 KILN116',
    '55 KILN111',
    '65 KILN114',
  ]);
});

test.run();
