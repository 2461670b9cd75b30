// Spawns a server pinned to the server core and measures the time from spawn to its first 200
// on a given path, the process's peak resident memory (VmHWM) at that moment, and the CPU time
// its threads had used by then: unlike the wall time, other work on the machine does not stretch it.
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
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

/**
 * Milliseconds of CPU the process's threads have run (the first field of each thread's
 * /proc/<pid>/task/<tid>/schedstat, in nanoseconds); undefined where /proc has no schedstat.
 */
async function cpuMs(pid) {
  try {
    let nanoseconds = 0;
    for (const tid of await readdir(`/proc/${pid}/task`)) {
      const fields = (await readFile(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').catch(() => '0')).split(' ');
      nanoseconds += Number(fields[0]);
    }
    return nanoseconds / 1e6;
  } catch {
    return undefined;
  }
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
    return { milliseconds, cpuMs: await cpuMs(child.pid), peakRssMb: await peakRssMb(child.pid) };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}
