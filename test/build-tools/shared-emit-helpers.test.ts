// TypeScript writes its decorator helpers (__esDecorate, __runInitializers) into every decorated
// file. In an esbuild bundle built with @kiln/core/esbuild, the files Kiln compiles import them from
// one shared module instead, so the bundle defines each once (a bundle starts faster: one copy to
// compile and warm up, not one per controller); a build that does not bundle keeps them in each
// file, where no bundler could resolve a shared module. fixtures/app has decorated classes in two
// files (items-controller.ts, greeter.ts); shared-checks.test.ts serves its bundle.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { build } from 'esbuild';
import kiln from '@kiln/core/esbuild';
import { fixtureProject, type FixtureProject } from './support/fixture-project.js';

let app: FixtureProject;

test.before(() => {
  app = fixtureProject('app');
});

test.after(() => app.remove());

const definitions = (code: string, helper: string) => code.match(new RegExp(`\\bvar ${helper}\\d* = `, 'g'))?.length ?? 0;

test('a bundle defines each decorator helper once, and nothing imports a helper module', async () => {
  const result = await build({
    entryPoints: [join(app.dir, 'src', 'main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    outfile: join(app.dir, 'bundle', 'server.mjs'),
    logLevel: 'silent',
    plugins: [kiln({ tsconfig: join(app.dir, 'tsconfig.json') })],
  });
  const bundle = result.outputFiles[0]!.text;
  assert.is(definitions(bundle, '__esDecorate'), 1);
  assert.is(definitions(bundle, '__runInitializers'), 1);
  assert.not.match(bundle, /from ["']kiln-ts-helper:/);
  assert.match(bundle, 'function kiln$bind_ItemsController_get(');
});

test('without bundling, each decorated file keeps its own helpers', async () => {
  const result = await build({
    entryPoints: [join(app.dir, 'src', 'items-controller.ts'), join(app.dir, 'src', 'greeter.ts')],
    bundle: false,
    platform: 'node',
    format: 'esm',
    write: false,
    outdir: join(app.dir, 'out'),
    logLevel: 'silent',
    plugins: [kiln({ tsconfig: join(app.dir, 'tsconfig.json') })],
  });
  assert.is(result.outputFiles.length, 2);
  for (const file of result.outputFiles) {
    assert.is(definitions(file.text, '__esDecorate'), 1, file.path);
    assert.not.match(file.text, 'kiln-ts-helper:', file.path);
  }
});

test.run();
