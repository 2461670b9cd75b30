// The same fixture app built four ways — tspc with the plugin, esbuild with @kiln/core/esbuild,
// vitest with @kiln/core/vite, node --import @kiln/core/register — and one check suite
// (fixtures/app/checks.mjs) run against each: typed params, enums, dates, arrays, a typia-validated
// body, a custom decorator, a route without parameters, defaulted parameters.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import kiln from '@kiln/core/esbuild';
import { fixtureProject, fixtures, run, serve, tspc, vitest, type FixtureProject, type Served } from './support/fixture-project.js';

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
  project = fixtureProject('app');
  const dir = project.dir;
  // The four builds run side by side.
  await Promise.all([
    (async () => {
      const built = await run(tspc, ['-p', dir, '--pretty', 'false'], dir);
      assert.is(built.code, 0, built.output);
      servers.set('tspc', await serve(['dist/main.js'], dir));
    })(),
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
      servers.set('register', await serve(['--import', '@kiln/core/register', 'src/main.ts'], dir));
    })(),
    (async () => {
      const ran = await run(vitest, ['run', '--root', dir, '--reporter=json', '--outputFile=vitest-report.json'], dir);
      const { readFileSync } = await import('node:fs');
      vitestRun = { ...ran, report: JSON.parse(readFileSync(join(dir, 'vitest-report.json'), 'utf8')) };
    })(),
  ]);
});

test.after(() => {
  for (const server of servers.values()) server.stop();
  project.remove();
});

for (const tool of ['tspc', 'esbuild', 'register']) {
  test(`${tool}: every check of the suite passes over HTTP`, async () => {
    const server = servers.get(tool)!;
    for (const check of suite.checks) {
      const response = await fetch(suite.requestOf(check, server.base));
      assert.equal(await suite.actual(response), suite.expected(check), `${tool}: ${check.name}`);
    }
  });
}

test('vite (through vitest): every check of the suite passes through app.fetch', () => {
  const results = vitestRun.report.testResults.flatMap((file) => file.assertionResults);
  assert.equal(results.map((r) => r.title).sort(), suite.checks.map((c) => c.name).sort(), vitestRun.output);
  for (const result of results) assert.is(result.status, 'passed', `${result.title}\n${vitestRun.output}`);
  assert.is(vitestRun.code, 0);
});

test('the esbuild bundle is one file that holds the binders and the typia validators', async () => {
  const { readFileSync } = await import('node:fs');
  const bundle = readFileSync(join(project.dir, 'bundle', 'server.mjs'), 'utf8');
  assert.match(bundle, 'function kiln$bind_ItemsController_get(');
  assert.match(bundle, 'string & MinLength<1>', 'the typia validator of NewItem');
  assert.not.match(bundle, /from ["']typia/);
  assert.not.match(bundle, /from ["']@kiln\/core/);
});

test.run();
