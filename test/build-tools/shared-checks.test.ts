// The same fixture app built four ways — tspc with the plugin, esbuild with @kiln/core/esbuild,
// vitest with @kiln/core/vite, node --import @kiln/core/register — and one check suite
// (fixtures/app/checks.mjs) run against each: typed params, enums, dates, arrays, a typia-validated
// body, a custom decorator, a route without parameters, defaulted parameters. The app is written
// twice: with parameter decorators (fixtures/app) and with type-level sources (fixtures/app-type-level).
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

interface VitestRun {
  code: number | null;
  output: string;
  report: { testResults: { assertionResults: { title: string; status: string }[] }[] };
}

/** One form of the app: its consumer project, its three servers and its vitest run. */
interface Built {
  project: FixtureProject;
  servers: Map<string, Served>;
  vitestRun: VitestRun;
}

/** The four builds of one fixture, side by side. */
async function buildAll(fixture: string, built: Map<string, Built>): Promise<void> {
  const project = fixtureProject(fixture);
  const dir = project.dir;
  const servers = new Map<string, Served>();
  const entry: Built = { project, servers, vitestRun: undefined as unknown as VitestRun };
  built.set(fixture, entry);
  await Promise.all([
    (async () => {
      const ran = await run(tspc, ['-p', dir, '--pretty', 'false'], dir);
      assert.is(ran.code, 0, ran.output);
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
      entry.vitestRun = { ...ran, report: JSON.parse(readFileSync(join(dir, 'vitest-report.json'), 'utf8')) };
    })(),
  ]);
}

/** The app with parameter decorators, and the same app with type-level sources (`id: Param<number>`). */
const forms = ['app', 'app-type-level'];
const built = new Map<string, Built>();

test.before(async () => {
  await Promise.all(forms.map((fixture) => buildAll(fixture, built)));
});

test.after(() => {
  for (const { project, servers } of built.values()) {
    for (const server of servers.values()) server.stop();
    project.remove();
  }
});

for (const fixture of forms) {
  for (const tool of ['tspc', 'esbuild', 'register']) {
    test(`${fixture}, ${tool}: every check of the suite passes over HTTP`, async () => {
      const server = built.get(fixture)!.servers.get(tool)!;
      for (const check of suite.checks) {
        const response = await fetch(suite.requestOf(check, server.base));
        assert.equal(await suite.actual(response), suite.expected(check), `${fixture}, ${tool}: ${check.name}`);
      }
    });
  }

  test(`${fixture}, vite (through vitest): every check of the suite passes through app.fetch`, () => {
    const { vitestRun } = built.get(fixture)!;
    const results = vitestRun.report.testResults.flatMap((file) => file.assertionResults);
    assert.equal(results.map((r) => r.title).sort(), suite.checks.map((c) => c.name).sort(), vitestRun.output);
    for (const result of results) assert.is(result.status, 'passed', `${result.title}\n${vitestRun.output}`);
    assert.is(vitestRun.code, 0);
  });

  test(`${fixture}: the esbuild bundle is one file that holds the binders and the typia validators`, async () => {
    const { readFileSync } = await import('node:fs');
    const bundle = readFileSync(join(built.get(fixture)!.project.dir, 'bundle', 'server.mjs'), 'utf8');
    assert.match(bundle, 'function kiln$bind_ItemsController_get(');
    assert.match(bundle, 'string & MinLength<1>', 'the typia validator of NewItem');
    assert.not.match(bundle, /from ["']typia/);
    assert.not.match(bundle, /from ["']@kiln\/core/);
  });
}

test('both forms compile to the same binders (tspc)', async () => {
  const { readFileSync } = await import('node:fs');
  const binders = (fixture: string): string[] => {
    const code = readFileSync(join(built.get(fixture)!.project.dir, 'dist', 'items-controller.js'), 'utf8');
    // Each binder up to its end, without its comments: they name the source line and the annotation as written.
    return [...code.matchAll(/^(?:async )?function kiln\$(?:bind|deps)_[\s\S]*?^}/gm)].map((m) => m[0].replace(/\s*\/\/.*$/gm, ''));
  };
  const decorated = binders('app');
  assert.ok(decorated.length >= 5, 'the decorator form has binders');
  assert.equal(binders('app-type-level'), decorated);
});

test.run();
