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
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import kiln from '@kiln/core/esbuild';
import { fixtureProject, fixtures, run, serve, vitest, type FixtureProject, type Served } from './support/fixture-project.js';

interface Check {
  name: string;
  status: number;
}
interface CheckSuite {
  checks: Check[];
  requestOf(check: Check, base: string): Request;
  expected(check: Check): unknown;
  actual(response: Response): Promise<unknown>;
}

const suite = (await import(pathToFileURL(join(fixtures, 'app', 'checks.mjs')).href)) as CheckSuite;
let project: FixtureProject;
const servers = new Map<string, Served>();
let vitestRun: {
  code: number | null;
  output: string;
  report: { testResults: { assertionResults: { title: string; status: string }[] }[] };
};

test.before(async () => {
  project = fixtureProject('app', { typescript: 7 });
  const dir = project.dir;
  await Promise.all([
    (async () => {
      const result = await build({
        entryPoints: [join(dir, 'src', 'main.ts')],
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        outfile: join(dir, 'bundle', 'server.mjs'),
        plugins: [kiln({ tsconfig: join(dir, 'tsconfig.json') })],
        logLevel: 'silent',
      });
      assert.equal(result.errors, []);
      servers.set('esbuild', await serve(['bundle/server.mjs'], dir));
    })(),
    (async () => {
      const ran = await run(vitest, ['run', '--root', dir, '--reporter=json', '--outputFile=vitest-report.json'], dir);
      vitestRun = { ...ran, report: JSON.parse(readFileSync(join(dir, 'vitest-report.json'), 'utf8')) };
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
    const server = servers.get(tool)!;
    for (const check of suite.checks) {
      const response = await fetch(suite.requestOf(check, server.base));
      assert.equal(await suite.actual(response), suite.expected(check), `${tool}: ${check.name}`);
    }
  });
}

test('TypeScript 7, vite (through vitest): every check of the suite passes through app.fetch', () => {
  const results = vitestRun.report.testResults.flatMap((file) => file.assertionResults);
  assert.equal(results.map((r) => r.title).sort(), suite.checks.map((c) => c.name).sort(), vitestRun.output);
  for (const result of results) assert.is(result.status, 'passed', `${result.title}\n${vitestRun.output}`);
  assert.is(vitestRun.code, 0);
});

test('TypeScript 7: the esbuild bundle holds the binders and the typia validators', () => {
  const bundle = readFileSync(join(project.dir, 'bundle', 'server.mjs'), 'utf8');
  assert.match(bundle, 'function kiln$bind_ItemsController_get(');
  assert.match(bundle, 'string & MinLength<1>', 'the typia validator of NewItem');
  assert.not.match(bundle, /from ["']typia/);
});

test.run();
