// The generated client's types hold at the call: a wrong parameter type, a missing required query
// value, a wrong body shape, and reading a property the return type lacks are each a type error
// on its line, with TypeScript 6 (`tsc --noEmit`) and TypeScript 7 (`tsgo --noEmit`), and a
// correct use (narrowing on `ok` and `status`) type-checks clean. The consumer is
// fixtures/consumer/calls.ts, over the client the build writes for the contract fixture.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync, cpSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileFixture, root } from '../transformer/support/compile-fixture.js';
import { run } from '../build-tools/support/fixture-project.js';

const Types = suite('typed client: type errors at the call (tsc and tsgo)');
// Inside the repository, so that '@kiln/core/client' resolves to this package (self-reference).
const project = join(root, 'build', 'client-types');
const calls = join(root, 'test', 'client', 'fixtures', 'consumer');

Types.before(async () => {
  const built = await compileFixture(
    join(root, 'test', 'openapi', 'fixtures', 'contract'),
    join(root, 'build', 'openapi-contract', 'dist'),
  );
  assert.is(built.exitCode, 0, built.output);
  mkdirSync(project, { recursive: true });
  cpSync(calls, project, { recursive: true });
  copyFileSync(join(root, 'build', 'openapi-contract', 'client.ts'), join(project, 'client.ts'));
});

/** Each `// error: TS2322` marker (one code or two): the line, and the codes that may be reported there. */
function expected(): { line: number; codes: string[] }[] {
  return readFileSync(join(calls, 'calls.ts'), 'utf8')
    .split('\n')
    .flatMap((text, i) => {
      const marker = /\/\/ error: ((?:TS\d+ ?)+)$/.exec(text);
      return marker === null ? [] : [{ line: i + 1, codes: marker[1]!.trim().split(' ') }];
    });
}

/** Each error reported: its file, line and code. */
function reported(output: string): { file: string; line: number; code: string }[] {
  return output.split('\n').flatMap((line) => {
    const match = /^(.+?)\((\d+),\d+\): error (TS\d+):/.exec(line.trim());
    return match === null ? [] : [{ file: match[1]!, line: Number(match[2]), code: match[3]! }];
  });
}

for (const [name, compiler] of [
  ['tsc (TypeScript 6)', join(root, 'node_modules', 'typescript', 'bin', 'tsc')],
  ['tsgo (TypeScript 7)', join(root, 'node_modules', 'typescript-7', 'bin', 'tsc')],
] as const) {
  Types(`${name} --noEmit: each mistake is a type error on its line, and nothing else is`, async () => {
    const ran = await run(compiler, ['--noEmit', '-p', project, '--pretty', 'false'], project);
    const errors = reported(ran.output);
    const marked = expected();
    assert.ok(marked.length >= 8, 'the fixture marks its mistakes');
    assert.equal(
      errors.map((e) => `${e.file}:${e.line}`),
      marked.map((m) => `calls.ts:${m.line}`),
      ran.output,
    );
    errors.forEach((error, i) => assert.ok(marked[i]!.codes.includes(error.code), `${error.code} at line ${error.line}: ${ran.output}`));
    assert.is.not(ran.code, 0);
  });
}

Types.run();
