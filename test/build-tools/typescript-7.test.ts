// The build-tools fixture app in a TypeScript 7 project (docs/guide/typescript-7.md): the
// project's `typescript` is 7.0 (no compiler API), TypeScript 6 sits beside it as `typescript-6`.
// esbuild with @kiln/core/esbuild and vitest with @kiln/core/vite build it (with TypeScript 7's
// checker), and the shared check suite (fixtures/app/checks.mjs) passes on each. (@kiln/core/register
// in a TypeScript 7 project: the consumer test runs the Getting started page's variant through it.)
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fixtureProject, type FixtureProject, type Served } from './support/fixture-project.js';
import { assertServedChecksPass, assertVitestPassedEveryCheck, bundleAndServe, runVitest, type VitestRun } from './support/check-suite.js';

let project: FixtureProject;
const servers = new Map<string, Served>();
let vitestRun: VitestRun;

test.before(async () => {
  project = fixtureProject('app', { typescript: 7 });
  const dir = project.dir;
  await Promise.all([
    (async () => {
      servers.set('esbuild', await bundleAndServe(dir));
    })(),
    (async () => {
      vitestRun = await runVitest(dir);
    })(),
  ]);
});

test.after(() => {
  for (const server of servers.values()) server.stop();
  project.remove();
});

test("the project's typescript is 7.0, with no compiler API; typescript-6 is 6.0", () => {
  const projectRequire = createRequire(join(project.dir, 'tsconfig.json'));
  const ts7 = projectRequire('typescript') as { version: string; createProgram?: unknown };
  assert.match(ts7.version, /^7\.0\./);
  assert.is(ts7.createProgram, undefined);
  assert.match((projectRequire('typescript-6') as { version: string }).version, /^6\.0\./);
});

for (const tool of ['esbuild']) {
  test(`TypeScript 7, ${tool}: every check of the suite passes over HTTP`, async () => {
    await assertServedChecksPass(servers.get(tool)!, tool);
  });
}

test('TypeScript 7, vite (through vitest): every check of the suite passes through app.fetch', () => {
  assertVitestPassedEveryCheck(vitestRun);
});

test('TypeScript 7: the esbuild bundle holds the binders and the typia validators', () => {
  const bundle = readFileSync(join(project.dir, 'bundle', 'server.mjs'), 'utf8');
  assert.match(bundle, 'function kiln$bind_ItemsController_get(');
  assert.match(bundle, 'string & MinLength<1>', 'the typia validator of NewItem');
  assert.not.match(bundle, /from ["']typia/);
});

test.run();
