// Type tests: the public types refuse what would fail at run time. The fixtures are compiled with
// the real compiler; every `// expect: TSnnnn` line must fail with that code, and nothing else may.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileFixture, parseDiagnostics, root, type Reported } from '../transformer/support/compile-fixture.js';

const project = join(root, 'test', 'server', 'fixtures', 'types');
const expected: { file: string; line: number; code: string }[] = [];
for (const file of readdirSync(project).filter((name) => name.endsWith('.ts'))) {
  readFileSync(join(project, file), 'utf8')
    .split('\n')
    .forEach((text, i) => {
      const marker = /\/\/ expect: (TS\d+)/.exec(text);
      if (marker !== null) expected.push({ file, line: i + 1, code: marker[1]! });
    });
}

let reported: Reported[] = [];
let output = '';
test.before(async () => {
  const compiled = await compileFixture(project, join(root, 'build', 'type-fixtures'));
  output = compiled.output;
  reported = parseDiagnostics(output).map((r) => ({ ...r, file: r.file.split('/').pop()! }));
});

const cases: [string, string][] = [
  ['request-properties.ts', 'req.parms is a compile error: KilnRequest has no index signature'],
  ['controllers.ts', 'controllers: [Math.max] is a compile error: controllers are classes'],
  ['augmented-request.ts', 'a property declared by declaration merging is typed (and only with its declared type)'],
];
for (const [file, title] of cases) {
  test(title, () => {
    const mine = expected.filter((e) => e.file === file);
    assert.ok(mine.length > 0, `${file} has expect markers`);
    for (const e of mine) {
      assert.ok(
        reported.some((r) => r.file === file && r.line === e.line && r.code === e.code),
        `${e.code} expected at ${file}:${e.line}\n${output}`,
      );
    }
  });
}

test('nothing else fails to compile (the valid uses beside each error compile, with skipLibCheck off)', () => {
  const unexpected = reported.filter((r) => !expected.some((e) => e.file === r.file && e.line === r.line && e.code === r.code));
  assert.equal(unexpected, [], output);
});

test.run();
