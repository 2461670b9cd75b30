// Runs the load generator pinned to the load core: wrk (Debian package `wrk`), or autocannon
// where wrk is absent (or BENCH_LOAD_GENERATOR=autocannon). Returns req/s, requests served, p99
// latency and the count of bad answers.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { loadCore } from './server-process.mjs';

const run = promisify(execFile);
const connections = 64;

/** A Lua string literal (the bench's requests are ASCII). */
const lua = (text) => JSON.stringify(text);

/**
 * wrk's Lua script for a scenario that a command line cannot say: a body, or several requests
 * sent in turn (the mixed traffic, rotating over its list across all connections).
 */
function wrkScript(scenario) {
  const requests = scenario.mixed?.map((entry) => entry.request) ?? [scenario.request];
  const lines = ['-- written by bench/http/load-generator.mjs', 'local requests = {}', 'init = function(args)'];
  requests.forEach((request, i) => {
    const headers = Object.entries(request.headers)
      .map(([name, value]) => `[${lua(name)}] = ${lua(value)}`)
      .join(', ');
    lines.push(
      `  requests[${i + 1}] = wrk.format(${lua(request.method)}, ${lua(request.path)}, { ${headers} }, ${request.body === undefined ? 'nil' : lua(request.body)})`,
    );
  });
  lines.push('end', 'local i = 0', 'request = function()', '  i = i % #requests + 1', '  return requests[i]', 'end', '');
  const file = join(tmpdir(), `kiln-bench-${process.pid}-${scenario.id}.lua`);
  writeFileSync(file, lines.join('\n'));
  return file;
}

let wrkPresent;
async function hasWrk() {
  // BENCH_LOAD_GENERATOR=autocannon forces the fallback (to check it on a machine that has wrk).
  if (process.env.BENCH_LOAD_GENERATOR === 'autocannon') return false;
  if (wrkPresent === undefined) {
    wrkPresent = await run('wrk', ['--version']).then(
      () => true,
      (error) => error.code !== 'ENOENT',
    );
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
  // A timeout (no answer within wrk's 2 s) is counted apart: on a loaded machine it is a slow answer, not a wrong one.
  const errors = non2xx + (socketErrors ? socketErrors.slice(1, 4).reduce((sum, n) => sum + Number(n), 0) : 0);
  const timeouts = socketErrors ? Number(socketErrors[4]) : 0;
  if (!Number.isFinite(rps)) throw new Error(`cannot read wrk's output:\n${output}`);
  return { rps, requests, p99Ms: p99, errors, timeouts };
}

async function wrk(port, scenario, seconds) {
  const args = ['-c', String(loadCore), 'wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '--latency'];
  const request = scenario.request ?? scenario.mixed[0].request;
  if (scenario.mixed !== undefined || request.body !== undefined) args.push('-s', wrkScript(scenario));
  else for (const [name, value] of Object.entries(request.headers)) args.push('-H', `${name}: ${value}`);
  args.push(`http://127.0.0.1:${port}${request.path}`);
  const { stdout } = await run('taskset', args, { timeout: (seconds + 30) * 1000 });
  return parseWrk(stdout);
}

async function autocannon(port, scenario, seconds) {
  if (scenario.mixed !== undefined)
    throw new Error(`${scenario.title} needs wrk (apt-get install wrk): autocannon's command line sends one request`);
  const request = scenario.request;
  const bin = fileURLToPath(new URL('../node_modules/.bin/autocannon', import.meta.url));
  const args = ['-c', String(loadCore), bin, '-j', '-c', String(connections), '-d', String(seconds), '-m', request.method];
  for (const [name, value] of Object.entries(request.headers)) args.push('-H', `${name}=${value}`);
  if (request.body !== undefined) args.push('-b', request.body);
  args.push(`http://127.0.0.1:${port}${request.path}`);
  const { stdout } = await run('taskset', args, { timeout: (seconds + 30) * 1000, maxBuffer: 1 << 24 });
  const result = JSON.parse(stdout);
  return {
    rps: result.requests.average,
    requests: result.requests.total,
    p99Ms: result.latency.p99,
    errors: result.non2xx + result.errors,
  };
}

/** Loads a scenario's request (or its rotation of requests) against 127.0.0.1:port for `seconds`. */
export async function load(port, scenario, seconds) {
  return (await hasWrk()) ? wrk(port, scenario, seconds) : autocannon(port, scenario, seconds);
}
