// Spawns a server pinned to the server core and measures the time from spawn to its first 200
// on a given path, and the process's peak resident memory (VmHWM) at that moment.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import { serverCore } from '../http/server-process.mjs';

function get(port, path) {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode));
    });
    request.on('error', () => resolve(0));
  });
}

async function peakRssMb(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

/** `node`: the Node binary that runs `script` (this one by default). */
export async function firstResponse(script, port, path, timeoutMs = 30_000, node = process.execPath) {
  const started = process.hrtime.bigint();
  const child = spawn('taskset', ['-c', String(serverCore), node, script, String(port)], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      const status = await get(port, path);
      if (status === 200) break;
      if (status !== 0) throw new Error(`${script} answered ${status} on ${path}`);
      if (child.exitCode !== null) throw new Error(`${script} exited (${child.exitCode}):\n${stderr}`);
      if (Number(process.hrtime.bigint() - started) / 1e6 > timeoutMs) throw new Error(`${script} did not answer in ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const milliseconds = Number(process.hrtime.bigint() - started) / 1e6;
    return { milliseconds, peakRssMb: await peakRssMb(child.pid) };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}
