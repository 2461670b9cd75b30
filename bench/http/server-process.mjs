// Starts one benchmark server pinned to the server core, waits until it answers, stops it.
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

export const serverCore = 0;
export const loadCore = 1;

async function answers(url, headers) {
  try {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(1000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

/**
 * Spawns `node [nodeArgs] <script> <port> [--rate-limit]` under `taskset -c <serverCore>` and polls
 * `probe` (a GET the process is measured on, so a process that serves one route sees no other).
 * `command` runs another runtime instead of this Node (`nodeArgs` are then its arguments: `deno run …`);
 * `cwd` is the process's folder (Deno finds bench/'s npm packages from bench/).
 */
export async function startServer(
  server,
  port,
  {
    rateLimited = false,
    timeoutMs = 20_000,
    nodeArgs = [],
    probe = { path: '/hello', headers: {} },
    extraArgs = [],
    command = process.execPath,
    cwd,
  } = {},
) {
  const args = ['-c', String(serverCore), command, ...nodeArgs, server.script, String(port)];
  if (rateLimited) args.push('--rate-limit');
  args.push(...extraArgs);
  // stdout is kept only when V8 is asked to trace (--trace-deopt writes there); servers print nothing else.
  const traced = nodeArgs.some((arg) => arg.startsWith('--trace'));
  const child = spawn('taskset', args, {
    stdio: ['ignore', traced ? 'pipe' : 'ignore', 'pipe'],
    cwd,
    env: { ...process.env, NODE_ENV: 'production' },
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  if (traced) child.stdout.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + timeoutMs;
  let exitCode;
  void exited.then((code) => (exitCode = code ?? 'signal'));
  while (!(await answers(`http://127.0.0.1:${port}${probe.path}`, probe.headers))) {
    if (exitCode !== undefined) throw new Error(`${server.name} exited (${exitCode}) before answering:\n${stderr}`);
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`${server.name} did not answer within ${timeoutMs} ms:\n${stderr}`);
    }
    await sleep(20);
  }
  return {
    pid: child.pid,
    stderr: () => stderr,
    exited: () => exitCode !== undefined,
    async stop() {
      if (exitCode === undefined) child.kill('SIGTERM');
      await exited;
    },
  };
}
