// Runs the load generator pinned to the load core: wrk (Debian package `wrk`), or autocannon
// where wrk is absent (or BENCH_LOAD_GENERATOR=autocannon). Returns req/s, requests served, p99
// latency and the count of bad answers.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { loadCore } from './server-process.mjs';

const run = promisify(execFile);
const connections = 64;
const postScript = fileURLToPath(new URL('wrk/post-user.lua', import.meta.url));

let wrkPresent;
async function hasWrk() {
  // BENCH_LOAD_GENERATOR=autocannon forces the fallback (to check it on a machine that has wrk).
  if (process.env.BENCH_LOAD_GENERATOR === 'autocannon') return false;
  if (wrkPresent === undefined) {
    wrkPresent = await run('wrk', ['--version']).then(() => true, (error) => error.code !== 'ENOENT');
  }
  return wrkPresent;
}

export async function loadGeneratorName() {
  return (await hasWrk()) ? `wrk, 1 thread, ${connections} connections` : `autocannon, ${connections} connections`;
}

function milliseconds(text) {
  const [, number, unit] = /^([\d.]+)(us|ms|s)$/.exec(text.trim()) ?? [];
  if (number === undefined) return NaN;
  return Number(number) * (unit === 'us' ? 0.001 : unit === 's' ? 1000 : 1);
}

function parseWrk(output) {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1]);
  const requests = Number(/(\d+) requests in/.exec(output)?.[1]);
  const p99 = milliseconds(/^\s+99%\s+(\S+)/m.exec(output)?.[1] ?? '');
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const errors = non2xx + (socketErrors ? socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0);
  if (!Number.isFinite(rps)) throw new Error(`cannot read wrk's output:\n${output}`);
  return { rps, requests, p99Ms: p99, errors };
}

async function wrk(port, request, seconds) {
  const args = ['-c', String(loadCore), 'wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '--latency'];
  for (const [name, value] of Object.entries(request.headers)) {
    if (request.method === 'GET') args.push('-H', `${name}: ${value}`);
  }
  if (request.method === 'POST') args.push('-s', postScript);
  args.push(`http://127.0.0.1:${port}${request.path}`);
  const { stdout } = await run('taskset', args, { timeout: (seconds + 30) * 1000 });
  return parseWrk(stdout);
}

async function autocannon(port, request, seconds) {
  const bin = fileURLToPath(new URL('../node_modules/.bin/autocannon', import.meta.url));
  const args = ['-c', String(loadCore), bin, '-j', '-c', String(connections), '-d', String(seconds), '-m', request.method];
  for (const [name, value] of Object.entries(request.headers)) args.push('-H', `${name}=${value}`);
  if (request.body !== undefined) args.push('-b', request.body);
  args.push(`http://127.0.0.1:${port}${request.path}`);
  const { stdout } = await run('taskset', args, { timeout: (seconds + 30) * 1000, maxBuffer: 1 << 24 });
  const result = JSON.parse(stdout);
  return { rps: result.requests.average, requests: result.requests.total, p99Ms: result.latency.p99, errors: result.non2xx + result.errors };
}

/** Loads `request` against 127.0.0.1:port for `seconds`. */
export async function load(port, request, seconds) {
  return (await hasWrk()) ? wrk(port, request, seconds) : autocannon(port, request, seconds);
}
