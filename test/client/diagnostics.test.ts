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

/** tsc reports errors about no file (KILN172, KILN173) instead of those in files: each kind is built on its own. */
function tsconfig(client: unknown, include = ['mistakes.ts']): void {
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
        // typia's transformer, as in an app with typed bodies: tsc parses JSDoc for its plugins only then.
        plugins: [
          { transform: join(root, 'dist', 'transformer', 'index.cjs'), transformProgram: true, client },
          { transform: 'typia/lib/transform' },
        ],
      },
      include,
    }),
  );
}

Diagnostics.before(() => {
  mkdirSync(project, { recursive: true });
  cpSync(join(root, 'test', 'client', 'fixtures', 'mistakes'), project, { recursive: true });
});

Diagnostics.after(() => rmSync(project, { recursive: true, force: true }));

Diagnostics('KILN174 at each bad @throws tag, nothing for @throws {RangeError}', async () => {
  tsconfig({ output: 'client.ts' });
  const built = await compileFixture(project, join(project, 'dist'));
  assert.is.not(built.exitCode, 0);
  const found = parseDiagnostics(built.output).map((d) => `${d.file.replace(/^.*\//, '')}:${d.line} ${d.code}`);
  assert.equal(found, ['mistakes.ts:7 KILN174', 'mistakes.ts:14 KILN174'], built.output);
  assert.match(
    built.output,
    /KILN174: the @throws tag of MistakesController\.literal writes the data's type inside the tag, where TypeScript gives it no members: declare it as an interface or type alias and name it/,
  );
  assert.match(built.output, /KILN174: the @throws tag of MistakesController\.wide must name an HttpError type with a literal status/);
});

Diagnostics('KILN172 for two inputs of one name, KILN173 for two routes that would be one function', async () => {
  tsconfig({ output: 'client.ts' }, ['names.ts']);
  const built = await compileFixture(project, join(project, 'dist'));
  assert.is.not(built.exitCode, 0);
  assert.match(
    built.output,
    /KILN172: two inputs of GET \/names\/clash\/\{id\} \(NamesController\.clash\) are named 'id' in its client function's input/,
  );
  assert.match(
    built.output,
    /KILN173: GET \/names\/named \(clash\) would be the client function names\.clash, which another route of the controller already is; give one an @operationId tag in its JSDoc/,
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
