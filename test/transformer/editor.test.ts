// The tsserver plugin, driven through the TypeScript language service API as an editor drives it.
// It is loaded the way tsserver loads plugins (`ts.sys.require` from a project's node_modules).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { fixturesDir } from './support/compile-fixture.js';
import { consumerProject } from './support/consumer-project.js';
import { languageServiceFor } from './support/language-service.js';

const project = join(fixturesDir, 'editor');
const appFile = join(project, 'app.ts');
const appText = readFileSync(appFile, 'utf8');

function languageService(overrides: ts.CompilerOptions = {}): ts.LanguageService {
  return languageServiceFor(project, overrides);
}

type PluginFactory = (modules: { typescript: typeof ts }) => { create(info: ts.server.PluginCreateInfo): ts.LanguageService };

function loadPlugin(): PluginFactory {
  const consumer = consumerProject();
  try {
    // tsserver's own loader (not part of the public typings): plain node_modules lookup, no exports map.
    const system = ts.sys as typeof ts.sys & { require(dir: string, name: string): { module?: unknown; error?: unknown } };
    const loaded = system.require(join(consumer.dir, 'node_modules'), '@kiln/core/transformer/editor');
    assert.is(loaded.error, undefined, String(loaded.error));
    return loaded.module as PluginFactory;
  } finally {
    consumer.remove();
  }
}

function withPlugin(config: object = {}, overrides: ts.CompilerOptions = {}): ts.LanguageService {
  const service = languageService(overrides);
  return loadPlugin()({ typescript: ts }).create({ languageService: service, config } as unknown as ts.server.PluginCreateInfo);
}

const at = (d: ts.Diagnostic) => {
  const { line, character } = d.file!.getLineAndCharacterOfPosition(d.start!);
  return `${line + 1}:${character + 1} ${d.source === 'kiln' ? ts.flattenDiagnosticMessageText(d.messageText, ' ').split(':')[0] : `TS${d.code}`}`;
};
const column = (line: number, text: string) => `${line}:${appText.split('\n')[line - 1]!.indexOf(text) + 1}`;

test('without the plugin, the language service reports TS1206 on every parameter decorator', () => {
  const found = languageService().getSemanticDiagnostics(appFile).map(at);
  assert.equal(found, [
    `${column(12, "@Param('id')")} TS1206`,
    `${column(12, "@Query('q')")} TS1206`,
    `${column(12, '@Ip()')} TS1206`,
    `${column(17, "@Param('name')")} TS1206`,
    `${column(17, '@Foreign()')} TS1206`,
  ]);
});

test('with the plugin, TS1206 stays only on the foreign decorator and the KILN errors appear', () => {
  const found = withPlugin().getSemanticDiagnostics(appFile).map(at);
  assert.equal(found, [`${column(17, '@Foreign()')} TS1206`, `${column(17, "'name'")} KILN101`, `${column(17, 'foreign:')} KILN102`]);
});

test('with noUnusedLocals, imports used only by Kiln parameter decorators are not reported unused', () => {
  const unused = (service: ts.LanguageService) =>
    service
      .getSemanticDiagnostics(appFile)
      .filter((d) => d.code === 6133)
      .map((d) => appText.slice(d.start!, d.start! + d.length!));
  assert.equal(
    unused(languageService({ noUnusedLocals: true })).sort(),
    ['Foreign', 'Param', 'Query', "import { Ip } from './decorators.js';"],
    'without the plugin the checker calls them unused',
  );
  // `Foreign` is used only by a foreign (rejected) decorator: that report stays, as TS1206 does.
  assert.equal(unused(withPlugin({}, { noUnusedLocals: true })), ['Foreign']);
});

test('the plugin honours the disable option', () => {
  const found = withPlugin({ disable: ['KILN101', 'KILN102'] })
    .getSemanticDiagnostics(appFile)
    .map(at);
  assert.equal(found, [`${column(17, '@Foreign()')} TS1206`]);
});

test('the plugin passes every other language service call through', () => {
  const service = withPlugin();
  const position = appText.indexOf('return { id') + 'return { '.length;
  const info = service.getQuickInfoAtPosition(appFile, position);
  assert.match(ts.displayPartsToString(info?.displayParts), 'id: number');
});

test.run();
