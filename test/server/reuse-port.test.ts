// listen({ reusePort: true }) over real HTTP on 127.0.0.1: two processes of Node 24, Bun or Deno
// listen on one port and both answer; without the option a second process cannot bind; Node
// before 22.12 refuses with KILN053.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createServer } from '@kiln/core';
import { root, runtimeBinary } from '../runtimes/support/served-runtimes.js';

const script = join(root, 'test', 'server', 'support', 'reuse-port-server.mjs');
const index = pathToFileURL(join(root, 'dist', 'src', 'index.js')).href;

interface Started {
  child: ChildProcess;
  line: string;
}

function command(runtime: 'node24' | 'bun' | 'deno'): [string, string[]] {
  if (runtime === 'deno')
    return [runtimeBinary('deno'), ['run', '--unstable-net', '--allow-net', '--allow-read', '--allow-env', '--allow-sys', script]];
  return [runtimeBinary(runtime), [script]];
}

/** Starts one server process; resolves with its first line (`listening <port>`, `refused ...`) or what it printed before it died. */
function startProcess(runtime: 'node24' | 'bun' | 'deno', port: number, reuse: boolean): Promise<Started> {
  const [binary, args] = command(runtime);
  const child = spawn(binary, [...args, index, String(port), reuse ? 'reuse' : 'no'], { env: { ...process.env, NO_COLOR: '1' } });
  let output = '';
  return new Promise((resolve) => {
    const done = () => resolve({ child, line: output.split('\n')[0]! });
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('\n')) done();
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', done);
  });
}

const ReusePort = suite('listen({ reusePort })');

for (const runtime of ['node24', 'bun', 'deno'] as const) {
  ReusePort(`${runtime}: two processes listen on one port and both answer; without reusePort a second cannot bind`, async () => {
    const started: ChildProcess[] = [];
    try {
      const first = await startProcess(runtime, 0, true);
      started.push(first.child);
      const port = Number(/^listening (\d+)$/.exec(first.line)?.[1]);
      assert.ok(port > 0, first.line);
      const second = await startProcess(runtime, port, true);
      started.push(second.child);
      assert.is(second.line, `listening ${port}`);
      const pids = new Set<string>();
      for (let i = 0; i < 60 && pids.size < 2; i++) {
        const reply = await fetch(`http://127.0.0.1:${port}/who`, { headers: { connection: 'close' } });
        await reply.arrayBuffer();
        assert.is(reply.status, 404);
        pids.add(reply.headers.get('x-pid')!);
      }
      assert.equal(pids, new Set([String(first.child.pid), String(second.child.pid)]), 'both processes answered');
      const third = await startProcess(runtime, port, false);
      started.push(third.child);
      assert.not.ok(third.line.startsWith('listening'), `a process without reusePort bound the port: ${third.line}`);
    } finally {
      for (const child of started) child.kill('SIGKILL');
    }
  });
}

ReusePort('Node before 22.12 refuses reusePort with KILN053; a value that is not a boolean too', async () => {
  const app = createServer({ controllers: [], logger: { level: 'silent' } });
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const old = major < 22 || (major === 22 && minor < 12);
  if (old) {
    await app.listen({ port: 0, host: '127.0.0.1', reusePort: true }).then(
      () => assert.unreachable('listened'),
      (error: Error & { code?: string }) => {
        assert.is(error.code, 'KILN053');
        assert.is(
          error.message,
          `listen({ reusePort: true }) needs Node 22.12 or later (server.listen's reusePort), this is Node ${process.versions.node}: upgrade, or use node:cluster (docs: guide/scaling-out.md)`,
        );
      },
    );
  }
  await app.listen({ port: 0, host: '127.0.0.1', reusePort: 'yes' as never }).then(
    () => assert.unreachable('listened'),
    (error: Error & { code?: string }) =>
      assert.equal([error.code, error.message], ['KILN053', 'listen(): reusePort must be true or false, got yes']),
  );
  await app.close();
});

ReusePort.run();
