// A user's project, end to end, exactly as the Getting started page (docs/guide/getting-started.md)
// says: both packages packed from a copy of this working tree (what a fresh clone holds: no dist/;
// once per `npm test`, for every consumer suite on every Node: support/packed-tarballs.ts), a new project created beside it with the page's commands and files, the tarballs installed with
// npm, built with tspc, tested, started and asked over HTTP on 127.0.0.1, the docs page included.
// Then the page's next sections: vitest with its config beside node:test, the esbuild bundle run
// from an empty folder with the docs page on, the esbuild watch-and-restart script. And what the
// page promises on the way: the editor plugin loads in the project's own tsserver,
// @kiln/rate-limit's types resolve against the installed @kiln/core with skipLibCheck off, and
// stack traces from the installed packages point at .ts lines that exist. (The page's TypeScript 7
// variant: typescript-7-consumer.test.ts.)
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packedTarballs, tarballNames, withoutLines } from './support/packed-tarballs.js';
import { type LocalRegistry, startLocalRegistry } from './support/local-registry.js';
import { readmeBlock, readmeBlocks } from './support/readme-blocks.js';
import { runCommand, runScript } from './support/run-command.js';
import { startApp, type StartedApp } from './support/started-app.js';
import { tsserverDiagnostics } from './support/tsserver-diagnostics.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const blocks = readmeBlocks(join(root, 'docs', 'guide', 'getting-started.md'));
const workDir = mkdtempSync(join(tmpdir(), 'kiln-consumer-e2e-'));
let registry: LocalRegistry | undefined;
const clone = join(workDir, 'kiln');
const project = join(workDir, 'my-api');
let app: StartedApp | undefined;

// Written beside the page's files (not part of them): two stack traces from the installed
// packages, and a type check that fails the build if @kiln/rate-limit's types lost @kiln/core's.
const probe = `import { createServer, type KilnRequest, type MiddlewareFunction } from '@kiln/core';
import { rateLimit, type RateLimitOptions } from '@kiln/rate-limit';

type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
export const keyGeneratorTakesKilnRequest: Same<Parameters<NonNullable<RateLimitOptions['keyGenerator']>>[0], KilnRequest> = true;
export const rateLimitTakesMiddlewareArguments: Same<Parameters<ReturnType<typeof rateLimit>>, Parameters<MiddlewareFunction>> = true;
export const rateLimitIsMiddleware: MiddlewareFunction = rateLimit();

class NotAController {}
for (const fail of [() => createServer({ controllers: [NotAController] }), () => rateLimit({ max: -1 })]) {
  try {
    fail();
  } catch (error) {
    console.log((error as Error).stack);
  }
}
`;

function tarballFiles(tarball: string): string[] {
  return execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.replace(/^package\//, ''));
}

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith(suffix))
    .map((file) => join(dir, file));
}

test('Getting started step 1: npm pack, in a copy of the working tree without dist/, builds both packages and ships dist/, sources, no tests', async () => {
  const pack = await packedTarballs(workDir);
  assert.is(pack.exitCode, 0, pack.output);
  registry = await startLocalRegistry(join(workDir, 'registry'));
  for (const tarball of Object.values(tarballNames)) await registry.publish(join(workDir, 'kiln', tarball));

  const core = tarballFiles(join(clone, 'kiln-core-0.1.0.tgz'));
  for (const needed of [
    'package.json',
    'README.md',
    'dist/src/index.js',
    'dist/src/index.d.ts',
    'dist/src/index.js.map',
    'dist/src/binding/index.js',
    'src/index.ts',
    'dist/transformer/index.cjs',
    'dist/transformer/editor/plugin.cjs',
    'transformer/index.cts',
    'transformer/editor/package.json',
  ]) {
    assert.ok(core.includes(needed), `kiln-core-0.1.0.tgz lacks ${needed}: ${core.join(', ')}`);
  }
  const rateLimit = tarballFiles(join(clone, 'kiln-rate-limit-0.1.0.tgz'));
  for (const needed of ['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/rate-limit.js.map', 'src/rate-limit.ts']) {
    assert.ok(rateLimit.includes(needed), `kiln-rate-limit-0.1.0.tgz lacks ${needed}: ${rateLimit.join(', ')}`);
  }
  for (const file of [...core, ...rateLimit]) {
    assert.not.match(file, /^(test|bench|examples|packages|build)\/|\.test\.|tsbuildinfo|\.tgz$/, `shipped: ${file}`);
  }
});

test('Getting started steps 2–6: npm init, the install commands, package.json, tsconfig.json and the files; npm run build and npm test pass', async () => {
  const create = await runScript(readmeBlock(blocks, 'create'), workDir);
  assert.is(create.exitCode, 0, create.output);

  const packageJson = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
  assert.is(packageJson.dependencies['@kiln/core'], '^0.1.0', 'installed from the registry by name');
  assert.match(readFileSync(join(project, 'package-lock.json'), 'utf8'), `"resolved": "${registry!.url}@kiln/core/-/core-0.1.0.tgz"`);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ ...packageJson, ...JSON.parse(readmeBlock(blocks, 'package.json')) }, null, 2),
  );
  for (const file of ['tsconfig.json', 'src/app.ts', 'src/main.ts', 'test/app.test.ts', 'test/client.test.ts']) {
    mkdirSync(dirname(join(project, file)), { recursive: true });
    writeFileSync(join(project, file), readmeBlock(blocks, file));
  }
  writeFileSync(join(project, 'test', 'probe.ts'), probe);

  const run = await runScript(withoutLines(readmeBlock(blocks, 'run'), ['npm start']), project);
  assert.is(run.exitCode, 0, run.output);
  assert.not.match(run.output, /error TS/);
  // node --test prints TAP ('# pass 2') on Node 20 and 22 when not on a terminal, the spec reporter ('ℹ pass 2') from Node 23.
  assert.match(run.output, /^(?:#|ℹ) pass 2$/m);
  // The first build wrote the typed client test/client.test.ts imports (docs/guide/typed-client.md).
  assert.match(readFileSync(join(project, 'src', 'client.ts'), 'utf8'), /^ {2}get\(input: \{\n {4}id: number;\n {2}\}/m);
  assert.match(run.output, /^(?:#|ℹ) fail 0$/m);
});

test('npm start serves the Getting started app on 127.0.0.1: typed param, typia-validated body (400 naming the path), rate limit (429 after 3)', async () => {
  app = await startApp(project);
  const get = await fetch(`${app.origin}/notes/42`);
  assert.is(get.status, 200);
  assert.equal(await get.json(), { id: 42 });

  const notNumber = await fetch(`${app.origin}/notes/x`);
  assert.is(notNumber.status, 400);
  assert.equal(await notNumber.json(), { error: 'Bad Request', message: "Parameter 'id' expected number, got 'x'" });

  const post = (body: string) => fetch(`${app!.origin}/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const invalid = await post('{"text":""}');
  assert.is(invalid.status, 400);
  const invalidBody = (await invalid.json()) as { message: string; data: { errors: unknown[] } };
  assert.is(invalidBody.message, 'Invalid request body: $input.text expected string & MinLength<1>, got ""');
  assert.equal(invalidBody.data.errors, [{ path: '$input.text', expected: 'string & MinLength<1>', value: '' }]);

  const created = await post('{"text":"hi"}');
  assert.is(created.status, 201);
  assert.equal(await created.json(), { id: 1, text: 'hi' });
  assert.is(created.headers.get('ratelimit-remaining'), '1');
  assert.is((await post('{"text":"hi"}')).status, 201);

  const limited = await post('{"text":"hi"}');
  assert.is(limited.status, 429);
  assert.equal(await limited.json(), { error: 'Too Many Requests', message: 'Rate limit exceeded. Try again in 60 seconds.' });
  assert.is(limited.headers.get('retry-after'), '60');

  // docs.document as the page gives it ('openapi.json', from the working directory) under npm start (dist/src/main.js).
  const document = await fetch(`${app.origin}/openapi.json`);
  assert.is(document.status, 200);
  assert.equal(Object.keys(((await document.json()) as { paths: object }).paths).sort(), ['/notes', '/notes/{id}']);
  const page = await fetch(`${app.origin}/docs`);
  assert.is(page.status, 200);
  assert.match(page.headers.get('content-type')!, /^text\/html/);
  await app.stop();
  app = undefined;
});

test("Getting started, Test with vitest: the page's vitest.config.ts runs test/notes.spec.ts beside the node:test files", async () => {
  const install = await runScript(readmeBlock(blocks, 'vitest-install'), project);
  assert.is(install.exitCode, 0, install.output);
  for (const file of ['vitest.config.ts', 'test/notes.spec.ts']) writeFileSync(join(project, file), readmeBlock(blocks, file));
  // test/app.test.ts and dist/test/app.test.js (node:test) are there: the config's test.include leaves them out.
  assert.ok(existsSync(join(project, 'dist', 'test', 'app.test.js')));
  const run = await runScript(readmeBlock(blocks, 'vitest-run'), project);
  assert.is(run.exitCode, 0, run.output);
  assert.match(run.output, /Test Files\s+1 passed \(1\)/);
  assert.match(run.output, /Tests\s+2 passed \(2\)/);
});

test('Getting started, Bundle for deployment: the bundle, copied to an empty folder, serves the app, its OpenAPI document and the docs page', async () => {
  const install = await runScript(readmeBlock(blocks, 'esbuild-install'), project);
  assert.is(install.exitCode, 0, install.output);
  writeFileSync(join(project, 'build.mjs'), readmeBlock(blocks, 'build.mjs'));
  const start = 'node --enable-source-maps server.mjs';
  const bundle = await runScript(withoutLines(readmeBlock(blocks, 'bundle-run'), [start]), project);
  assert.is(bundle.exitCode, 0, bundle.output);
  const deploy = join(workDir, 'deploy');
  assert.equal(readdirSync(deploy).sort(), ['node_modules', 'openapi.json', 'server.mjs', 'server.mjs.map']);
  assert.equal(readdirSync(join(deploy, 'node_modules')), ['swagger-ui-dist']);
  for (let dir = dirname(deploy); dir !== dirname(dir); dir = dirname(dir)) assert.not.ok(existsSync(join(dir, 'node_modules')), dir);

  const server = await startApp(deploy, start);
  try {
    const note = await fetch(`${server.origin}/notes/42`);
    assert.is(note.status, 200);
    assert.equal(await note.json(), { id: 42 });
    assert.is((await fetch(`${server.origin}/openapi.json`)).status, 200);
    const page = await fetch(`${server.origin}/docs`);
    assert.is(page.status, 200);
    assert.match(await page.text(), '/docs/swagger-ui-bundle.js');
    const script = await fetch(`${server.origin}/docs/swagger-ui-bundle.js`);
    assert.is(script.status, 200);
    assert.ok((await script.arrayBuffer()).byteLength > 100_000);
  } finally {
    await server.stop();
  }
});

test('Getting started, Rebuild and restart: node watch.mjs rebuilds and restarts the server when src/app.ts changes', async () => {
  writeFileSync(join(project, 'watch.mjs'), readmeBlock(blocks, 'watch.mjs'));
  const command = readmeBlock(blocks, 'watch-run')
    .replace(/\s+#.*$/gm, '')
    .trim();
  assert.is(command, 'node watch.mjs');
  const appFile = join(project, 'src', 'app.ts');
  const source = readFileSync(appFile, 'utf8');
  const watcher = await startApp(project, command);
  try {
    assert.equal(await (await fetch(`${watcher.origin}/notes/42`)).json(), { id: 42 });
    const edited = source.replace('return { id };', 'return { id, edited: true };');
    assert.is.not(edited, source);
    writeFileSync(appFile, edited);
    const restarted = await watcher.listening(2);
    assert.equal(await (await fetch(`${restarted}/notes/42`)).json(), { id: 42, edited: true });
  } finally {
    writeFileSync(appFile, source);
    await watcher.stop();
  }
});

test("the project's own tsserver loads @kiln/core/transformer/editor: no TS1206, KILN101 reported", async () => {
  const source = readmeBlock(blocks, 'src/app.ts');
  const edited = source.replace("@Param('id') id: number", "@Param('nope') id: number");
  assert.is.not(edited, source);
  const line = edited.split('\n').findIndex((text) => text.includes("@Param('nope')"));
  const diagnostics = await tsserverDiagnostics(project, join(project, 'src', 'app.ts'), edited);
  assert.equal(
    diagnostics.map((d) => `${d.start.line}:${d.start.offset} ${d.code}`),
    [`${line + 1}:${edited.split('\n')[line]!.indexOf("'nope'") + 1} 9101`],
  );
  assert.match(diagnostics[0]!.text, "KILN101: @Param('nope') but the route GET /notes/:id declares no ':nope'");
});

test("@kiln/rate-limit's types resolve against the installed @kiln/core with skipLibCheck off", () => {
  // The page's tsconfig.json extends nothing: skipLibCheck is off unless it says otherwise.
  assert.not.match(readmeBlock(blocks, 'tsconfig.json'), /skipLibCheck|extends/);
  // The build above compiled test/probe.ts, whose type equalities fail if KilnRequest came back as any.
  assert.ok(existsSync(join(project, 'dist', 'test', 'probe.js')));
  const options = readFileSync(join(project, 'node_modules', '@kiln', 'rate-limit', 'dist', 'rate-limit-options.d.ts'), 'utf8');
  assert.match(options, "import type { KilnRequest } from '@kiln/core';");
});

test('stack traces from the installed packages (node --enable-source-maps) point at shipped .ts lines that throw', async () => {
  const run = await runCommand(process.execPath, ['--enable-source-maps', join('dist', 'test', 'probe.js')], project);
  assert.is(run.exitCode, 0, run.output);
  for (const [pkg, code] of [
    ['core', 'KILN001'],
    ['rate-limit', 'KILN201'],
  ] as const) {
    const frame = run.output.match(new RegExp(`\\((?:file://)?(/[^\\s)]*/node_modules/@kiln/${pkg}/src/[^\\s):]+\\.ts):(\\d+):\\d+\\)`));
    assert.ok(frame, `no frame in @kiln/${pkg}/src:\n${run.output}`);
    // The throw statement from the frame's line to its end (a formatter may wrap its arguments).
    const lines = readFileSync(frame![1]!, 'utf8')
      .split('\n')
      .slice(Number(frame![2]) - 1);
    const statement = lines.slice(0, lines.findIndex((text) => /\);\s*$/.test(text)) + 1).join('\n');
    // `throw new KilnError(...)`, or `throw kilnError(...)` with its message from the registry (the stack starts at the caller).
    assert.ok(
      /^\s*throw (new \w*Error|kilnError)\(/.test(statement) && statement.includes(`'${code}'`),
      `${frame![1]}:${frame![2]} is '${statement}'`,
    );
  }
});

test('every source map in the installed packages names sources that are shipped', () => {
  const maps = ['core', 'rate-limit'].flatMap((pkg) => filesUnder(join(project, 'node_modules', '@kiln', pkg, 'dist'), '.map'));
  assert.ok(maps.length > 100, `${maps.length} maps`);
  for (const map of maps) {
    const { sources, sourceRoot = '' } = JSON.parse(readFileSync(map, 'utf8'));
    for (const source of sources as string[]) {
      assert.ok(existsSync(resolve(dirname(map), sourceRoot, source)), `${map} names ${source}, which is not shipped`);
    }
  }
});

test('the typed client is written again by the next build: a route added to src/app.ts is a function of src/client.ts', async () => {
  const appFile = join(project, 'src', 'app.ts');
  const original = readFileSync(appFile, 'utf8');
  try {
    writeFileSync(appFile, original.replace("  @Post('/',", "  @Get('/')\n  list() {\n    return [{ id: 1 }];\n  }\n\n  @Post('/',"));
    const build = await runCommand('npm', ['run', 'build'], project);
    assert.is(build.exitCode, 0, build.output);
    const client = readFileSync(join(project, 'src', 'client.ts'), 'utf8');
    assert.match(
      client,
      /^ {2}list\(input\?: Record<string, never>, init\?: RequestInit\): Promise<Ok<200, \{\n {4}id: number;\n {2}\}\[\]>>;$/m,
    );
  } finally {
    writeFileSync(appFile, original);
  }
});

test("the README's complete example is the Getting started app, block for block", () => {
  const readme = readmeBlocks(join(root, 'README.md'));
  assert.equal([...readme.keys()], ['src/app.ts', 'src/main.ts', 'test/app.test.ts']);
  for (const [name, block] of readme) assert.fixture(block, readmeBlock(blocks, name), `README block ${name}`);
});

test.after(async () => {
  await app?.stop();
  await registry?.stop();
  rmSync(workDir, { recursive: true, force: true });
});

test.run();
