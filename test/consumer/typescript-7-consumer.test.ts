// The Getting started page's TypeScript 7 variant (docs/guide/getting-started.md, "With
// TypeScript 7"), verbatim, in an empty folder: both packages packed from a copy of this working
// tree (support/packed-tarballs.ts), a new project whose `typescript` is 7.0 with TypeScript 6 beside it as `typescript-6`,
// built with esbuild and @kiln/core/esbuild, its node:test file run through @kiln/core/register,
// the server started and asked over HTTP on 127.0.0.1. A suite of its own: consumer.test.ts
// already fills most of a suite's time.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packedTarballs, tarballNames, withoutLines } from './support/packed-tarballs.js';
import { type LocalRegistry, startLocalRegistry } from './support/local-registry.js';
import { readmeBlock, readmeBlocks } from './support/readme-blocks.js';
import { runScript } from './support/run-command.js';
import { startApp } from './support/started-app.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const blocks = readmeBlocks(join(root, 'docs', 'guide', 'getting-started.md'));
const workDir = mkdtempSync(join(tmpdir(), 'kiln-consumer-ts7-'));
let registry: LocalRegistry | undefined;

test('Getting started step 1 (as consumer.test.ts runs it): npm pack in a copy of the working tree', async () => {
  const pack = await packedTarballs(workDir);
  assert.is(pack.exitCode, 0, pack.output);
  registry = await startLocalRegistry(join(workDir, 'registry'));
  for (const tarball of Object.values(tarballNames)) await registry.publish(join(workDir, 'kiln', tarball));
  assert.ok(existsSync(join(workDir, 'kiln', 'kiln-core-0.1.0.tgz')));
});

test("Getting started, With TypeScript 7: the page's project builds with esbuild, tests through @kiln/core/register and serves the app", async () => {
  const ts7Project = join(workDir, 'my-api-ts7');
  const create = await runScript(readmeBlock(blocks, 'ts7-create'), workDir);
  assert.is(create.exitCode, 0, create.output);
  const packageJson = JSON.parse(readFileSync(join(ts7Project, 'package.json'), 'utf8'));
  writeFileSync(
    join(ts7Project, 'package.json'),
    JSON.stringify({ ...packageJson, ...JSON.parse(readmeBlock(blocks, 'ts7-package.json')) }, null, 2),
  );
  const install = await runScript(readmeBlock(blocks, 'ts7-install'), ts7Project);
  assert.is(install.exitCode, 0, install.output);
  assert.match(readFileSync(join(ts7Project, 'node_modules', 'typescript', 'package.json'), 'utf8'), /"version": "7\.0\./);
  assert.match(readFileSync(join(ts7Project, 'node_modules', 'typescript-6', 'package.json'), 'utf8'), /"version": "6\.0\./);
  writeFileSync(join(ts7Project, 'tsconfig.json'), readmeBlock(blocks, 'ts7-tsconfig.json'));
  writeFileSync(join(ts7Project, 'build.mjs'), readmeBlock(blocks, 'ts7-build.mjs'));
  for (const file of ['src/app.ts', 'src/main.ts', 'test/app.test.ts']) {
    mkdirSync(dirname(join(ts7Project, file)), { recursive: true });
    writeFileSync(join(ts7Project, file), readmeBlock(blocks, file));
  }
  const run = await runScript(withoutLines(readmeBlock(blocks, 'ts7-run'), ['npm start']), ts7Project);
  assert.is(run.exitCode, 0, run.output);
  assert.match(run.output, /^(?:#|ℹ) pass 1$/m);
  assert.match(run.output, /^(?:#|ℹ) fail 0$/m);

  const server = await startApp(ts7Project);
  try {
    assert.equal(await (await fetch(`${server.origin}/notes/42`)).json(), { id: 42 });
    const notNumber = await fetch(`${server.origin}/notes/x`);
    assert.is(notNumber.status, 400);
    assert.equal(await notNumber.json(), { error: 'Bad Request', message: "Parameter 'id' expected number, got 'x'" });
    const invalid = await fetch(`${server.origin}/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"text":""}',
    });
    assert.is(invalid.status, 400);
    assert.is(
      ((await invalid.json()) as { message: string }).message,
      'Invalid request body: $input.text expected string & MinLength<1>, got ""',
    );
    const document = await fetch(`${server.origin}/openapi.json`);
    assert.is(document.status, 200);
    assert.equal(Object.keys(((await document.json()) as { paths: object }).paths).sort(), ['/notes', '/notes/{id}']);
  } finally {
    await server.stop();
  }
});

test.after(async () => {
  await registry?.stop();
  rmSync(workDir, { recursive: true, force: true });
});

test.run();
