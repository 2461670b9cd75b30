// Build-time diagnostics, positions and source maps: fixtures that must fail are compiled with the
// real plugin; every `// expect: CODE` marker must be reported at its line, and nothing else.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, readdirSync } from 'node:fs';
import { SourceMap, createRequire } from 'node:module';
import { join } from 'node:path';
import { compileFixture, fixturesDir, parseDiagnostics, root, type Compiled, type Reported } from './support/compile-fixture.js';

const project = join(fixturesDir, 'diagnostics');
let compiled: Compiled;
let reported: Reported[];

interface Expected { file: string; line: number; code: string; column?: number }
const expected: Expected[] = [];
for (const name of readdirSync(project).filter((f) => f.endsWith('.ts')).sort()) {
  readFileSync(join(project, name), 'utf8').split('\n').forEach((text, i) => {
    const marker = /\/\/ expect: (\w+)(?: col (\d+))?/.exec(text);
    if (marker !== null) expected.push({ file: name, line: i + 1, code: marker[1]!, column: marker[2] === undefined ? undefined : Number(marker[2]) });
  });
}

test.before(async () => {
  compiled = await compileFixture(project, join(root, 'build', 'transformer-fixtures', 'diagnostics'));
  reported = parseDiagnostics(compiled.output).map((r) => ({ ...r, file: r.file.split('/').pop()! }));
});

test('a build with KILN errors exits non-zero', () => {
  assert.is.not(compiled.exitCode, 0);
  assert.ok(reported.length > 0, compiled.output);
});

const codes = [...new Set(expected.map((e) => e.code))].filter((c) => c.startsWith('KILN'));
for (const code of codes) {
  test(`${code} is reported at each marked line`, () => {
    for (const e of expected.filter((x) => x.code === code)) {
      const hit = reported.find((r) => r.file === e.file && r.line === e.line && r.code === code);
      assert.ok(hit, `${code} expected at ${e.file}:${e.line}; reported:\n${compiled.output}`);
      assert.ok(hit!.message.startsWith(`${code}: `));
    }
  });
}

test('nothing is reported that no marker expects', () => {
  const unexpected = reported.filter((r) => !expected.some((e) => e.file === r.file && e.line === r.line && e.code === r.code));
  assert.equal(unexpected, [], compiled.output);
});

test('tspc prints the file, line and column of a KILN error', () => {
  assert.match(compiled.output, /kiln101-param-not-in-path\.ts\(6,39\): error TS9101: KILN101: @Param\('name'\) but the route GET \/users\/:id declares no ':name'/);
  assert.match(compiled.output, /kiln105-duplicate-route-b\.ts\(6,3\): error TS9105: KILN105: GET \/items\/:key is already declared by ItemsA\.get \(kiln105-duplicate-route-a\.ts:5\)/);
});

test('positions: a type error in a file full of decorated methods is reported at its true line and column', () => {
  for (const e of expected.filter((x) => x.column !== undefined)) {
    const hit = reported.find((r) => r.file === e.file && r.line === e.line && r.code === e.code);
    assert.ok(hit, `${e.code} expected at ${e.file}:${e.line}`);
    assert.is(hit!.column, e.column, `${e.file}:${e.line}`);
  }
});

test('positions: the source map points emitted code back at its original line', () => {
  const outDir = compiled.outDir;
  const js = readFileSync(join(outDir, 'positions.js'), 'utf8');
  const map = new SourceMap(JSON.parse(readFileSync(join(outDir, 'positions.js.map'), 'utf8')));
  const source = readFileSync(join(project, 'positions.ts'), 'utf8').split('\n');
  for (const needle of ['const wrong = d;', 'export const marker = 42;', 'return { e, f };']) {
    const generatedLine = js.split('\n').findIndex((l) => l.includes(needle));
    assert.ok(generatedLine >= 0, needle);
    const column = js.split('\n')[generatedLine]!.indexOf(needle.startsWith('export') ? 'export' : needle.split(' ')[0]!);
    const entry = map.findEntry(generatedLine, column) as { originalLine: number };
    const originalNeedle = needle.replace('const wrong = d', 'const wrong: number = d').replace('marker = 42', 'marker: string = 42');
    assert.ok(source[entry.originalLine]!.includes(originalNeedle), `${needle} maps to line ${entry.originalLine + 1}: ${source[entry.originalLine]}`);
  }
});

test('positions: with inlineSources the source map embeds the file as written, not as rewritten', () => {
  const map = JSON.parse(readFileSync(join(compiled.outDir, 'positions.js.map'), 'utf8'));
  assert.equal(map.sourcesContent, [readFileSync(join(project, 'positions.ts'), 'utf8')]);
});

test('generated binders are in the emitted file, each naming its source file and line', () => {
  const js = readFileSync(join(compiled.outDir, 'positions.js'), 'utf8');
  assert.match(js, /\/\*\* GET \/positions\/:a → Positions\.a \(positions\.ts:8\) \*\/\nfunction kiln\$bind_Positions_a\(req, strict\) \{/);
  assert.match(js, /kiln\$b\.compiledBinder\(kiln\$bind_Positions_d\)/);
  assert.not.match(js, /Param\('a'\)/, 'the parameter decorators are gone from the output');
});

test('every KILN code of the registry is documented in the README', () => {
  const { diagnosticCodes } = createRequire(import.meta.url)(join(root, 'dist', 'transformer', 'diagnostics', 'diagnostic-codes.cjs'));
  const docs = readFileSync(join(root, 'README.md'), 'utf8');
  for (const { code } of Object.values(diagnosticCodes) as { code: number }[]) {
    assert.match(docs, new RegExp(`\\| \`KILN${code}\` \\|`), `KILN${code} is not documented`);
  }
});

test.run();
