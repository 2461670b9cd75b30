// Incremental rebuilds follow types in other files: an esbuild context with @kiln/core/esbuild
// rebuilds after the body interface (src/model.ts) gains a field, and the controller's validator
// (in src/items-controller.ts, which did not change) enforces the new shape. The plugin keeps each
// file's last output while neither the file nor a file it depends on for types changes, so this
// fails if that dependency is not tracked (and esbuild or Vite would be handed a stale validator).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { context, type BuildContext } from 'esbuild';
import kiln from '@kiln/core/esbuild';
import type { KilnServer } from '@kiln/core';
import { spawn } from 'node:child_process';
import { fixtureProject, type FixtureProject } from './support/fixture-project.js';

let project: FixtureProject;
let build: BuildContext;
let outfile: string;
let version = 0;

test.before(async () => {
  project = fixtureProject('app');
  outfile = join(project.dir, 'bundle', 'app.mjs');
  build = await context({
    entryPoints: [join(project.dir, 'src', 'app.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    plugins: [kiln({ tsconfig: join(project.dir, 'tsconfig.json') })],
    logLevel: 'silent',
  });
});

test.after(async () => {
  await build.dispose();
  project.remove();
});

/** Rebuilds and loads the new bundle (a fresh URL: ES modules are cached by URL). */
async function rebuilt(): Promise<KilnServer> {
  const result = await build.rebuild();
  assert.equal(result.errors, []);
  const { createApp } = (await import(`${pathToFileURL(outfile).href}?v=${++version}`)) as { createApp(): KilnServer };
  return createApp();
}

async function post(app: KilnServer, body: unknown): Promise<[number, string]> {
  const response = await app.fetch(
    new Request('http://localhost/items', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  );
  const json = (await response.json()) as { message?: string };
  return [response.status, json.message ?? ''];
}

test('after an edit to the body interface in another file, the next rebuild validates the new shape', async () => {
  const before = await rebuilt();
  assert.equal(await post(before, { name: 'lamp', count: 1 }), [201, '']);
  assert.equal(await post(before, { name: 'lamp', count: 1, colour: 'red' }), [
    400,
    'Invalid request body: $input.colour expected undefined, got "red"',
  ]);

  const model = join(project.dir, 'src', 'model.ts');
  writeFileSync(
    model,
    readFileSync(model, 'utf8').replace('count: number & tags.Minimum<0>;', 'count: number & tags.Minimum<0>;\n  colour: string;'),
  );

  const after = await rebuilt();
  assert.equal(await post(after, { name: 'lamp', count: 1 }), [400, 'Invalid request body: $input.colour expected string, got undefined']);
  assert.equal(await post(after, { name: 'lamp', count: 1, colour: 'red' }), [201, '']);
});

test('a rebuild without changes hands esbuild the same validator', async () => {
  const again = await rebuilt();
  assert.equal(await post(again, { name: 'lamp', count: 1, colour: 'red' }), [201, '']);
});

test('node --watch --import @kiln/core/register restarts when a type-only import changes, with the new validator', async () => {
  const dev = fixtureProject('app');
  const child = spawn(process.execPath, ['--watch', '--import', '@kiln/core/register', 'src/main.ts'], {
    cwd: dev.dir,
    env: { ...process.env, PORT: '0' },
  });
  let output = '';
  const listening = (count: number) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const ports = [...output.matchAll(/listening on (\d+)/g)].map((m) => m[1]!);
        if (ports.length >= count) resolve(`http://127.0.0.1:${ports[count - 1]}`);
      };
      child.stdout.on('data', (chunk) => {
        output += chunk;
        check();
      });
      child.stderr.on('data', (chunk) => {
        output += chunk;
      });
      child.on('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
      check();
    });
  const send = async (base: string, body: unknown) => {
    const response = await fetch(`${base}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return [response.status, ((await response.json()) as { message?: string }).message ?? ''];
  };
  try {
    const first = await listening(1);
    assert.equal(await send(first, { name: 'lamp', count: 1 }), [201, '']);
    // The controller's import of src/model.ts is erased at emit (NewItem is a type; the enum's values are copied into
    // the binder), so Node never loads it: only the hook's report makes node --watch restart on this edit.
    const model = join(dev.dir, 'src', 'model.ts');
    writeFileSync(
      model,
      readFileSync(model, 'utf8').replace('count: number & tags.Minimum<0>;', 'count: number & tags.Minimum<0>;\n  colour: string;'),
    );
    const second = await listening(2);
    assert.match(output, "Restarting 'src/main.ts'");
    assert.equal(await send(second, { name: 'lamp', count: 1 }), [
      400,
      'Invalid request body: $input.colour expected string, got undefined',
    ]);
  } finally {
    child.kill('SIGTERM');
    dev.remove();
  }
});

test.run();
