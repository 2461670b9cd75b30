// The same fixture app built four ways — tspc with the plugin, esbuild with @kiln/core/esbuild,
// vitest with @kiln/core/vite, node --import @kiln/core/register — and one check suite
// (fixtures/app/checks.mjs) run against each: typed params, enums, dates, arrays, a typia-validated
// body, a custom decorator, a route without parameters, defaulted parameters. The app is written
// twice: with parameter decorators (fixtures/app) and with type-level sources (fixtures/app-type-level).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureProject, run, serve, tspc, type FixtureProject, type Served } from './support/fixture-project.js';
import { assertServedChecksPass, assertVitestPassedEveryCheck, bundleAndServe, runVitest, type VitestRun } from './support/check-suite.js';

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
      servers.set('esbuild', await bundleAndServe(dir));
    })(),
    (async () => {
      servers.set('register', await serve(['--import', '@kiln/core/register', 'src/main.ts'], dir));
    })(),
    (async () => {
      entry.vitestRun = await runVitest(dir);
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
      await assertServedChecksPass(built.get(fixture)!.servers.get(tool)!, `${fixture}, ${tool}`);
    });
  }

  test(`${fixture}, vite (through vitest): every check of the suite passes through app.fetch`, () => {
    assertVitestPassedEveryCheck(built.get(fixture)!.vitestRun);
  });

  test(`${fixture}: the esbuild bundle is one file that holds the binders and the typia validators`, () => {
    const bundle = readFileSync(join(built.get(fixture)!.project.dir, 'bundle', 'server.mjs'), 'utf8');
    assert.match(bundle, 'function kiln$bind_ItemsController_get(');
    assert.match(bundle, 'string & MinLength<1>', 'the typia validator of NewItem');
    assert.not.match(bundle, /from ["']typia/);
    assert.not.match(bundle, /from ["']@kiln\/core/);
  });
}

test('both forms compile to the same binders (tspc)', () => {
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
