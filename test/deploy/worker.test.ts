// The deployment page's complete worker (docs/guide/deployment.md, "A complete worker"): the
// Getting started app (its tsconfig.json and src/app.ts, as that page gives them) built with tspc,
// which writes openapi.json, then the page's worker/worker.ts, build-worker.mjs and workerd.capnp,
// and its run block, under workerd. Over HTTP on 127.0.0.1: a typed route, the limiter's 429 (the
// build needs nothing of Node: issue 34, item 10), and the OpenAPI document. The run block's
// `workerd serve workerd.capnp` gets two flags here: the socket on an ephemeral port of 127.0.0.1
// (the page's is *:8080), reported on a control pipe.
// The same project also holds the section "One limit across isolates" (worker-shared/worker.ts,
// build-worker-shared.mjs, worker-shared/workerd.capnp and its run block): served the same way,
// the DurableObjectStore limiter's draft-8 fields and, after `max` requests, its exact 429.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { docBlock, docBlocks, root } from './support/doc-blocks.js';
import { deployProject } from './support/deploy-project.js';

const { runtimeBinary } = (await import(pathToFileURL(join(root, 'test', 'runtimes', 'install-runtimes.mjs')).href)) as {
  runtimeBinary: (name: string) => string;
};
const blocks = docBlocks('deployment.md');
const started = docBlocks('getting-started.md', 'consumer-test');
const project = deployProject('worker', {
  'tsconfig.json': docBlock(started, 'tsconfig.json'),
  'src/app.ts': docBlock(started, 'src/app.ts'),
  'worker/worker.ts': docBlock(blocks, 'worker/worker.ts'),
  'build-worker.mjs': docBlock(blocks, 'build-worker.mjs'),
  'workerd.capnp': docBlock(blocks, 'workerd.capnp'),
  'worker-shared/worker.ts': docBlock(blocks, 'worker-shared/worker.ts'),
  'build-worker-shared.mjs': docBlock(blocks, 'build-worker-shared.mjs'),
  'worker-shared/workerd.capnp': docBlock(blocks, 'worker-shared/workerd.capnp'),
});
const workerd = runtimeBinary('workerd');

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: project, encoding: 'utf8' });
  assert.is(result.status, 0, `${command} ${args.join(' ')}:\n${result.stdout}${result.stderr}`);
}

/** A run block's three lines (build, copy and cd, serve), its comments left out. */
function runLines(name: string): string[] {
  return docBlock(blocks, name)
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '');
}

interface Served {
  readonly child: ChildProcess;
  readonly base: string;
  readonly output: () => string;
}

/** The run block's serve line in `folder`, its socket on an ephemeral port of 127.0.0.1. */
async function serve(folder: string, line: string): Promise<Served> {
  const command = `${line} --socket-addr http=127.0.0.1:0 --control-fd=3`;
  const child = spawn('bash', ['-c', `exec ${command}`], {
    cwd: join(project, folder),
    env: { ...process.env, PATH: `${dirname(workerd)}${delimiter}${process.env.PATH}` },
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let control = '';
      (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk) => {
        control += chunk;
        const listen = control.match(/"event":"listen","socket":"http","port":(\d+)/);
        if (listen) resolve(Number(listen[1]));
      });
      child.on('exit', (code) => reject(new Error(`workerd exited (${code}):\n${output}`)));
    });
    return { child, base: `http://127.0.0.1:${port}`, output: () => output };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

test("the page's worker builds and serves under workerd: the Getting started routes, the limiter's 429, the parsed OpenAPI document", async () => {
  // npm run build (tspc): writes openapi.json, which the worker imports.
  run(join(root, 'node_modules', '.bin', 'tspc'), ['-p', '.']);
  const [build, copy, serveLine, ...rest] = runLines('worker-run');
  assert.equal(
    [build, copy, serveLine, rest],
    ['node build-worker.mjs', 'cp workerd.capnp bundle-worker/ && cd bundle-worker', 'workerd serve workerd.capnp', []],
  );
  run('bash', ['-e', '-c', `${build}\n${copy}`]);

  const { child, base, output } = await serve('bundle-worker', serveLine!);
  try {
    const note = await fetch(`${base}/notes/42`);
    assert.is(note.status, 200, output());
    assert.equal(await note.json(), { id: 42 });
    const notNumber = await fetch(`${base}/notes/x`);
    assert.is(notNumber.status, 400);

    const post = () => fetch(`${base}/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"hi"}' });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await post()).status);
    assert.equal(statuses, [201, 201, 201, 429]);

    const document = await fetch(`${base}/openapi.json`);
    assert.is(document.status, 200);
    const served = (await document.json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    assert.equal(Object.keys(served.paths).sort(), ['/notes', '/notes/{id}']);
    assert.ok(served.paths['/notes']!.post!.responses['429'], "the limiter's 429 is in the served document");
  } finally {
    child.kill('SIGKILL');
  }
});

test("the page's DurableObjectStore worker builds and serves under workerd: draft-8 fields with max 100, the 101st request's 429", async () => {
  const [build, copy, serveLine, ...rest] = runLines('worker-shared-run');
  assert.equal(
    [build, copy, serveLine, rest],
    [
      'node build-worker-shared.mjs',
      'cp worker-shared/workerd.capnp bundle-worker-shared/ && cd bundle-worker-shared',
      'workerd serve workerd.capnp',
      [],
    ],
  );
  run('bash', ['-e', '-c', `${build}\n${copy}`]);

  const { child, base, output } = await serve('bundle-worker-shared', serveLine!);
  try {
    const first = await fetch(`${base}/notes/42`);
    assert.is(first.status, 200, output());
    assert.equal(await first.json(), { id: 42 });
    assert.is(first.headers.get('ratelimit-policy'), '"100-in-60s";q=100;w=60');
    assert.match(first.headers.get('ratelimit') ?? '', /^"100-in-60s";r=99;t=(59|60)$/);
    assert.is(first.headers.get('retry-after'), null);

    // 99 more from the same client, one at a time (bounded, loopback): the last allowed has r=0
    let last = first;
    for (let i = 2; i <= 100; i++) {
      last = await fetch(`${base}/notes/${i}`);
      assert.is(last.status, 200, `request ${i}: ${output()}`);
      await last.arrayBuffer();
    }
    assert.match(last.headers.get('ratelimit') ?? '', /^"100-in-60s";r=0;t=\d+$/);

    const refused = await fetch(`${base}/notes/101`);
    assert.is(refused.status, 429);
    assert.is(refused.headers.get('content-type'), 'application/json');
    assert.is(refused.headers.get('ratelimit-policy'), '"100-in-60s";q=100;w=60');
    const retryAfter = refused.headers.get('retry-after') ?? '';
    assert.match(retryAfter, /^([1-9]|[1-5]\d|60)$/, `Retry-After within the window: ${retryAfter}`);
    assert.is(refused.headers.get('ratelimit'), `"100-in-60s";r=0;t=${retryAfter}`);
    assert.equal(await refused.json(), {
      error: 'Too Many Requests',
      message: `Rate limit exceeded. Try again in ${retryAfter} seconds.`,
    });
  } finally {
    child.kill('SIGKILL');
  }
});

test.after(() => rmSync(project, { recursive: true, force: true }));

test.run();
