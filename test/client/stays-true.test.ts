// The client stays true: every build path that writes it writes it again on each build, so a
// route edited and rebuilt is the client's next version, and code that still calls the old route
// fails that same build. tspc, the esbuild plugin (a rebuild of the same context after the edit)
// and `node --import @kiln/core/register`, each on a copy of fixtures/stale.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, context } from 'esbuild';
import kiln from '@kiln/core/esbuild';
import { compileFixture, root } from '../transformer/support/compile-fixture.js';
import { run } from '../build-tools/support/fixture-project.js';

const StaysTrue = suite('typed client: written on every build, never stale');
// Inside the repository: '@kiln/core' resolves to this package, typia to its devDependency.
const project = join(root, 'build', `client-stale-${process.pid}`);
const items = join(project, 'src', 'items.ts');
const use = join(project, 'src', 'use.ts');
const client = join(project, 'src', 'client.ts');
const original = readFileSync(join(root, 'test', 'client', 'fixtures', 'stale', 'src', 'items.ts'), 'utf8');

StaysTrue.before(() => {
  cpSync(join(root, 'test', 'client', 'fixtures', 'stale'), project, { recursive: true });
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      strict: true,
      types: ['node'],
      lib: ['ES2023', 'DOM'],
      rootDir: '.',
      outDir: 'dist',
      plugins: [{ transform: join(root, 'dist', 'transformer', 'index.cjs'), transformProgram: true, client: { output: 'src/client.ts' } }],
    },
    include: ['src'],
  };
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
});

StaysTrue.after(() => rmSync(project, { recursive: true, force: true }));

const functions = () => [...readFileSync(client, 'utf8').matchAll(/^ {2}(\w+)\(input/gm)].map((m) => m[1]);

StaysTrue('tspc: the first build writes the client that code of the project imports, and type-checks that code against it', async () => {
  const built = await compileFixture(project, join(project, 'dist'));
  assert.is(built.exitCode, 0, built.output);
  assert.equal(functions(), ['list', 'get']);
  assert.ok(readFileSync(join(project, 'dist', 'src', 'client.js'), 'utf8').includes('path: "/items/{id}"'), 'emitted with the app');
});

StaysTrue("tspc: the first build emits the client when only the tsconfig's include names it (no code imports it yet)", async () => {
  const importer = readFileSync(use, 'utf8');
  rmSync(use);
  rmSync(client);
  rmSync(join(project, 'dist'), { recursive: true, force: true });
  try {
    const built = await compileFixture(project, join(project, 'dist'));
    assert.is(built.exitCode, 0, built.output);
    assert.equal(functions(), ['list', 'get']);
    assert.ok(
      readFileSync(join(project, 'dist', 'src', 'client.js'), 'utf8').includes('path: "/items/{id}"'),
      'emitted by the first build',
    );
  } finally {
    writeFileSync(use, importer);
  }
});

StaysTrue("tspc: a renamed route is the next build's client, and the call of the old name fails that build at its line", async () => {
  writeFileSync(items, original.replace('  list() {', '  all() {'));
  const built = await compileFixture(project, join(project, 'dist'));
  assert.equal(functions(), ['all', 'get']);
  assert.is.not(built.exitCode, 0);
  assert.match(built.output, /src\/use\.ts\(5,\d+\): error TS2339: Property 'list' does not exist on type 'ItemsRoutes'\./);
  writeFileSync(use, readFileSync(use, 'utf8').replace('.items.list()', '.items.all()'));
  const fixed = await compileFixture(project, join(project, 'dist'));
  assert.is(fixed.exitCode, 0, fixed.output);
});

StaysTrue('esbuild: the first build writes the client, a rebuild of the same context after an edit writes it again', async () => {
  writeFileSync(items, original);
  rmSync(client);
  const options = {
    entryPoints: [join(project, 'src', 'main.ts')],
    bundle: true,
    platform: 'node' as const,
    format: 'esm' as const,
    write: false,
    packages: 'external' as const,
    logLevel: 'silent' as const,
    plugins: [kiln({ tsconfig: join(project, 'tsconfig.json') })],
  };
  const ctx = await context(options);
  try {
    await ctx.rebuild();
    assert.equal(functions(), ['list', 'get']);
    writeFileSync(items, original.replace("  @Get('/:id')", "  @Get('/count')\n  count() {\n    return 2;\n  }\n\n  @Get('/:id')"));
    await ctx.rebuild();
    assert.equal(functions(), ['list', 'count', 'get']);
  } finally {
    await ctx.dispose();
  }
  // A one-off build (a fresh plugin) after another edit.
  writeFileSync(items, original.replace('  list() {', '  everything() {'));
  await build(options);
  assert.equal(functions(), ['everything', 'get']);
});

StaysTrue('node --import @kiln/core/register: running the app writes the client of the routes it runs', async () => {
  writeFileSync(items, original.replace('  get(@Param', '  one(@Param'));
  const ran = await run(process.execPath, ['--import', '@kiln/core/register', 'src/main.ts'], project, {
    KILN_TSCONFIG: join(project, 'tsconfig.json'),
  });
  assert.is(ran.code, 0, ran.output);
  assert.match(ran.output, /GET \/items, GET \/items\/:id/);
  assert.equal(functions(), ['list', 'one']);
});

StaysTrue.run();
