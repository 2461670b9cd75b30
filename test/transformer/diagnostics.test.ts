// Build-time diagnostics, positions and source maps: fixtures that must fail are compiled with the
// real plugin; every `// expect: CODE` marker must be reported at its line, and nothing else.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { SourceMap, createRequire } from 'node:module';
import { join } from 'node:path';
import { compileFixture, fixturesDir, markers, parseDiagnostics, root, type Compiled, type Reported } from './support/compile-fixture.js';

const project = join(fixturesDir, 'diagnostics');
let compiled: Compiled;
let reported: Reported[];

const expected = markers(project);

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
  assert.match(
    compiled.output,
    /kiln101-param-not-in-path\.ts\(6,39\): error TS9101: KILN101: @Param\('name'\) but the route GET \/users\/:id declares no ':name'/,
  );
  assert.match(
    compiled.output,
    /kiln105-duplicate-route-b\.ts\(6,3\): error TS9105: KILN105: GET \/items\/:key is already declared by ItemsA\.get \(kiln105-duplicate-route-a\.ts:5\)/,
  );
});

test('KILN103 prints the refused type and what to declare instead', () => {
  const at = (line: number, text: string): void => {
    const found = reported.some(
      (r) => r.file === 'kiln103-refused-types.ts' && r.line === line && r.code === 'KILN103' && r.message.includes(text),
    );
    assert.ok(found, `line ${line}: ${text}\n${compiled.output}`);
  };
  at(
    17,
    "KILN103: parameter 'm': 'Map<string, string>' is a Map, which request text (or JSON) never gives; declare a Record<string, T> (a JSON object) instead",
  );
  at(18, "'Set<string>' is a Set, which request text (or JSON) never gives; declare an array (T[]) instead");
  at(20, "'(x: number) => number': a function cannot come from a request");
  at(21, "'symbol': a symbol cannot come from a request; declare string");
  at(
    22,
    "'bigint': request text has no bigint form; declare number, or string & tags.Pattern<'^-?[0-9]+$'> and call BigInt() in the handler",
  );
  at(
    23,
    "'Point' is an instance of a class, which request text (or JSON) never gives: only its data can arrive, as a plain object; declare an interface or type alias",
  );
  at(24, "'number[][]' is an array of arrays, which repeated request text cannot express; repeat the key for one level (number[])");
  at(25, "'number | Date' mixes conversions (number, Date), so Kiln cannot tell how to read the text");
  at(26, "'string | string[]' mixes conversions (text, array)");
  at(27, `'boolean | "auto"' mixes conversions (boolean, literal)`);
});

test('one build reports every problem of one parameter: each non-JSON place of an object type', () => {
  const window = reported.filter((r) => r.file === 'kiln103-refused-types.ts' && r.line === 28).map((r) => r.message);
  assert.equal(window, [
    "KILN103: @Query('window') window: Window: 'from' is a Date, which JSON text never gives; declare it string & tags.Format<'date-time'> (import { tags } from 'typia') and convert it in the handler",
    "KILN103: @Query('window') window: Window: 'tags' is a Set, which JSON text never gives; declare the JSON form (a string, a number, an array or a plain object) and convert it in the handler",
  ]);
});

test('KILN113 says what to add for tagged and object-typed parameters without typia', () => {
  assert.match(
    compiled.output,
    'kiln113-tags-without-typia.ts(13,28): error TS9113: KILN113: @Query(\'limit\') limit: number & tags.Maximum<100> is checked against its typia tags (Maximum<100>) by a typia validator generated at build time, but typia\'s transformer is not configured: add { "transform": "typia/lib/transform" } after @kiln/core/transformer\'s entry in compilerOptions.plugins',
  );
  assert.match(compiled.output, "KILN113: @Query('filter') filter: Filter is checked against its declared object type");
});

test('KILN115: a request-property decorator only fits a parameter that accepts the property', () => {
  assert.match(
    compiled.output,
    'kiln115-request-property-type.ts(11,15): error TS9115: KILN115: @Ip() ip: number does not accept req.ip, which is string | undefined: declare ip: string | undefined',
  );
  assert.match(compiled.output, 'KILN115: @Req() req: string does not accept the request, a KilnRequest: declare req: KilnRequest');
});

test('KILN116 names the class of a static or #private route', () => {
  assert.match(
    compiled.output,
    "kiln116-static-or-private-route.ts(5,3): error TS9116: KILN116: @Get('/static') is on the static method Reports.list, which the router cannot call on a Reports instance; make it an instance method",
  );
  assert.match(
    compiled.output,
    "kiln116-static-or-private-route.ts(10,3): error TS9116: KILN116: @Get('/private') is on the #private method Reports.#hidden",
  );
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
    assert.ok(
      source[entry.originalLine]!.includes(originalNeedle),
      `${needle} maps to line ${entry.originalLine + 1}: ${source[entry.originalLine]}`,
    );
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

test('every KILN code of the registry is documented in the diagnostics reference', () => {
  const { diagnosticCodes } = createRequire(import.meta.url)(join(root, 'dist', 'transformer', 'diagnostics', 'diagnostic-codes.cjs'));
  const docs = readFileSync(join(root, 'docs', 'reference', 'diagnostics.md'), 'utf8');
  for (const { code } of Object.values(diagnosticCodes) as { code: number }[]) {
    assert.match(docs, new RegExp(`\\| \`KILN${code}\` \\|`), `KILN${code} is not documented`);
  }
});

interface RegistryEntry {
  code: number;
  warning?: true;
  messages: Record<string, (...args: unknown[]) => string>;
}

test('the registry lists its codes in numeric order, each with message templates that write every argument', () => {
  const { diagnosticCodes, diagnosticMessage } = createRequire(import.meta.url)(
    join(root, 'dist', 'transformer', 'diagnostics', 'diagnostic-codes.cjs'),
  );
  const entries = Object.entries(diagnosticCodes as Record<string, RegistryEntry>);
  const codes = entries.map(([, entry]) => entry.code);
  assert.equal(
    codes,
    [...codes].sort((a, b) => a - b),
  );
  assert.is(new Set(codes).size, codes.length, 'no code is used twice');
  for (const [key, entry] of entries) {
    const templates = Object.entries(entry.messages);
    assert.ok(templates.length > 0, `KILN${entry.code} has no message template`);
    for (const [name, template] of templates) {
      const args = Array.from({ length: template.length }, (_, index) => `«${index}»`);
      const message = diagnosticMessage(key, name, ...args);
      assert.is(message.key, key);
      for (const arg of args) assert.ok(message.text.includes(arg), `KILN${entry.code} ${name} does not write ${arg}: ${message.text}`);
    }
  }
});

test.run();
