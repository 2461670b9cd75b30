// The typed client's and @throws's build errors, each reported by tspc with its code and a message
// that says what to change: a data type written inside a @throws tag and a status that is not a
// literal (KILN174), two inputs of one name (KILN172), two routes that would be one function
// (KILN173), an invalid client option (KILN170). A @throws of another error type is left alone.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileFixture, parseDiagnostics, root } from '../transformer/support/compile-fixture.js';

const Diagnostics = suite('typed client: build errors');
const project = join(root, 'build', `client-mistakes-${process.pid}`);

function tsconfig(client: unknown): void {
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        strict: true,
        types: ['node'],
        rootDir: '.',
        outDir: 'dist',
        plugins: [{ transform: join(root, 'dist', 'transformer', 'index.cjs'), transformProgram: true, client }],
      },
      include: ['*.ts'],
    }),
  );
}

Diagnostics.before(() => {
  mkdirSync(project, { recursive: true });
  cpSync(join(root, 'test', 'client', 'fixtures', 'mistakes'), project, { recursive: true });
});

Diagnostics.after(() => rmSync(project, { recursive: true, force: true }));

Diagnostics('KILN174 at each bad @throws tag, KILN172 and KILN173 for the names, nothing for @throws {RangeError}', async () => {
  tsconfig({ output: 'client.ts' });
  const built = await compileFixture(project, join(project, 'dist'));
  assert.is.not(built.exitCode, 0);
  const found = parseDiagnostics(built.output).map((d) => `${d.file.replace(/^.*\//, '')}:${d.line} ${d.code}`);
  assert.equal(
    found.filter((d) => d.startsWith('mistakes.ts')),
    ['mistakes.ts:7 KILN174', 'mistakes.ts:14 KILN174'],
    built.output,
  );
  assert.match(
    built.output,
    /KILN174: the @throws tag of MistakesController\.literal writes the data's type inside the tag, where TypeScript gives it no members: declare it as an interface or type alias and name it/,
  );
  assert.match(built.output, /KILN174: the @throws tag of MistakesController\.wide must name an HttpError type with a literal status/);
  assert.match(
    built.output,
    /KILN172: two inputs of GET \/mistakes\/clash\/\{id\} \(MistakesController\.clash\) are named 'id' in its client function's input/,
  );
  assert.match(
    built.output,
    /KILN173: GET \/mistakes\/named \(clash\) would be the client function mistakes\.clash, which another route of the controller already is; give one an @operationId tag in its JSDoc/,
  );
});

Diagnostics('KILN170: a client option without a .ts output', async () => {
  tsconfig({ output: 'client.js' });
  const built = await compileFixture(project, join(project, 'dist'));
  assert.is.not(built.exitCode, 0);
  assert.match(
    built.output,
    /error TS9170: KILN170: the client option needs the TypeScript file to write, e\.g\. "client": \{ "output": "src\/client\.ts" \}/,
  );
});

Diagnostics.run();
