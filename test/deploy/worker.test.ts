// The deployment page's complete worker (docs/guide/deployment.md, "A complete worker"): the
// Getting started app (its tsconfig.json and src/app.ts, as that page gives them) built with tspc,
// which writes openapi.json, then the page's worker/worker.ts, build-worker.mjs and workerd.capnp,
// and its run block, under workerd. Over HTTP on 127.0.0.1: a typed route, the limiter's 429 (the
// build needs nothing of Node: issue 34, item 10), and the OpenAPI document. The run block's
// `workerd serve workerd.capnp` gets two flags here: the socket on an ephemeral port of 127.0.0.1
// (the page's is *:8080), reported on a control pipe.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync } from 'node:child_process';
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
});
const workerd = runtimeBinary('workerd');

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: project, encoding: 'utf8' });
  assert.is(result.status, 0, `${command} ${args.join(' ')}:\n${result.stdout}${result.stderr}`);
}

test("the page's worker builds and serves under workerd: the Getting started routes, the limiter's 429, the parsed OpenAPI document", async () => {
  // npm run build (tspc): writes openapi.json, which the worker imports.
  run(join(root, 'node_modules', '.bin', 'tspc'), ['-p', '.']);
  const [build, copy, serve, ...rest] = docBlock(blocks, 'worker-run')
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '');
  assert.equal(
    [build, copy, serve, rest],
    ['node build-worker.mjs', 'cp workerd.capnp bundle-worker/ && cd bundle-worker', 'workerd serve workerd.capnp', []],
  );
  run('bash', ['-e', '-c', `${build}\n${copy}`]);

  const command = `${serve} --socket-addr http=127.0.0.1:0 --control-fd=3`;
  const child = spawn('bash', ['-c', `exec ${command}`], {
    cwd: join(project, 'bundle-worker'),
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
    const base = `http://127.0.0.1:${port}`;

    const note = await fetch(`${base}/notes/42`);
    assert.is(note.status, 200, output);
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

test.after(() => rmSync(project, { recursive: true, force: true }));

test.run();
