// Every runtime: route (b) and the mixed traffic (m) — Kiln against raw node:http, Fastify and Hono
// on Node 20 and Node 26 side by side; against Elysia and Hono on Bun; against Hono on Deno — and
// the cold start of the example's esbuild bundle on each runtime (workerd included). Each
// measurement's server runs alone on the server core while wrk loads it from the other; the
// servers of one runtime get one short slot (1 s) each round in a rotated order, and ratios are
// taken within a round, then their median and interquartile range across rounds.
import { execFile, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { freePort } from '../free-port.mjs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { scenarios } from '../http/scenarios.mjs';
import { checkServer } from '../http/check-server.mjs';
import { load, loadGeneratorName } from '../http/load-generator.mjs';
import { cpuSeconds } from '../http/process-cpu.mjs';
import { serverCore } from '../http/server-process.mjs';
import { runtimeBinary } from '../../test/runtimes/install-runtimes.mjs';

const bench = fileURLToPath(new URL('..', import.meta.url));
const examples = fileURLToPath(new URL('../../examples/', import.meta.url));
const script = (path) => join(bench, path);
const bundleDir = join(examples, 'dist-bench-bundle');

const denoRun = ['run', '--allow-net', '--allow-read', '--allow-env', '--allow-sys'];
const nodeServers = [
  { name: 'node:http (raw)', args: [script('http/servers/raw-node.mjs')] },
  { name: 'Kiln', args: [script('build/kiln/http/servers/kiln/server.js')] },
  { name: 'Fastify', args: [script('http/servers/fastify.mjs')] },
  { name: 'Hono', args: [script('http/servers/hono.mjs')] },
];

/** The runtimes measured and their servers; Kiln's entry is the same on each (app.listen()). */
function runtimeGroups() {
  return [
    { runtime: 'Node 20', command: process.execPath, servers: nodeServers },
    { runtime: 'Node 26', command: runtimeBinary('node26'), servers: nodeServers },
    {
      runtime: 'Bun',
      command: runtimeBinary('bun'),
      servers: [
        { name: 'Kiln', args: [script('runtimes/servers/kiln.mjs')] },
        { name: 'Elysia', args: [script('runtimes/servers/elysia-bun.mjs')] },
        { name: 'Hono', args: [script('runtimes/servers/hono-bun.mjs')] },
      ],
    },
    {
      runtime: 'Deno',
      command: runtimeBinary('deno'),
      servers: [
        { name: 'Kiln', args: [...denoRun, script('runtimes/servers/kiln.mjs')] },
        { name: 'Hono', args: [...denoRun, script('runtimes/servers/hono-deno.mjs')] },
      ],
    },
  ];
}

async function answers(port, path, headers) {
  try {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers, signal: AbortSignal.timeout(1000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

/** Starts `command args port` pinned to the server core; resolves once it answers `probe`. */
async function startProcess(command, args, port, probe) {
  const child = spawn('taskset', ['-c', String(serverCore), command, ...args, String(port)], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production' },
    cwd: bench,
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 30_000;
  while (!(await answers(port, probe.path, probe.headers))) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited (${child.exitCode}):\n${stderr}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${args.join(' ')} did not answer:\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    pid: child.pid,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** One process per server and scenario, as bench/http's "fresh" (b) process. */
async function throughput({ rounds, seconds, warmupSeconds, log, only }) {
  const chosen = scenarios.filter((scenario) => scenario.id === 'b' || scenario.id === 'm');
  const measurements = [];
  for (const group of runtimeGroups().filter((candidate) => only === undefined || only.includes(candidate.runtime))) {
    log(`runtimes: ${group.runtime}: ${group.servers.map((server) => server.name).join(', ')}`);
    const running = [];
    try {
      for (const server of group.servers) {
        for (const scenario of chosen) {
          const port = await freePort();
          const probe = scenario.request ?? scenario.mixed[0].request;
          const process = await startProcess(group.command, server.args, port, probe);
          running.push({ server, scenario, port, process });
          await checkServer(server, port, [scenario]);
        }
      }
      for (let round = 0; round < rounds; round++) {
        for (const scenario of chosen) {
          const instances = running.filter((instance) => instance.scenario === scenario);
          const offset = round % instances.length;
          for (const instance of [...instances.slice(offset), ...instances.slice(0, offset)]) {
            // Interleaved slots (bench/interleaved/slots.mjs's method): warmed once, then one short slot a round.
            if (round === 0) await load(instance.port, scenario, warmupSeconds);
            const cpuBefore = cpuSeconds(instance.process.pid);
            const result = await load(instance.port, scenario, seconds);
            const cpuUsPerRequest = ((cpuSeconds(instance.process.pid) - cpuBefore) * 1e6) / result.requests;
            if (result.errors > 0) throw new Error(`${group.runtime} ${instance.server.name} ${scenario.id}: ${result.errors} bad answers`);
            measurements.push({
              runtime: group.runtime,
              round,
              server: instance.server.name,
              scenario: scenario.id,
              ...result,
              cpuUsPerRequest,
            });
            log(
              `  ${group.runtime.padEnd(8)} ${scenario.id}  ${instance.server.name.padEnd(18)} ${Math.round(result.rps).toString().padStart(7)} req/s  ${cpuUsPerRequest.toFixed(1)} µs CPU/req`,
            );
          }
        }
      }
    } finally {
      for (const instance of running) await instance.process.stop();
    }
  }
  return measurements;
}

/** Milliseconds from spawn to the first 200 of GET /health, median of `runs`. */
async function coldStart(command, args, runs, { workerd = false } = {}) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const port = await freePort();
    const started = process.hrtime.bigint();
    const child = spawn(
      'taskset',
      ['-c', String(serverCore), command, ...(workerd ? [...args, `--socket-addr=http=127.0.0.1:${port}`] : args)],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
        cwd: bundleDir,
        env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production' },
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      for (;;) {
        if (await answers(port, '/health', {})) break;
        if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited (${child.exitCode}):\n${stderr}`);
        if (Number(process.hrtime.bigint() - started) / 1e6 > 30_000) throw new Error(`${command} did not answer:\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
  }
  return times.sort((a, b) => a - b)[times.length >> 1];
}

async function coldStarts(runs, log, only) {
  // The example's bundles, as `npm run bundle` in examples/ writes them (server.mjs, worker.mjs).
  await promisify(execFile)(process.execPath, [join(examples, 'bundle.mjs'), 'dist-bench-bundle'], { cwd: examples });
  writeFileSync(
    join(bundleDir, 'workerd.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "example", worker = (modules = [ (name = "worker", esModule = embed "worker.mjs") ], compatibilityDate = "2026-11-01")) ],
  sockets = [ (name = "http", address = "127.0.0.1:8080", http = (), service = "example") ],
);
`,
  );
  const runtimes = [
    { runtime: 'Node 20', command: process.execPath, args: ['server.mjs'] },
    { runtime: 'Node 26', command: runtimeBinary('node26'), args: ['server.mjs'] },
    { runtime: 'Bun', command: runtimeBinary('bun'), args: ['server.mjs'] },
    { runtime: 'Deno', command: runtimeBinary('deno'), args: [...denoRun, 'server.mjs'] },
    { runtime: 'workerd', command: runtimeBinary('workerd'), args: ['serve', 'workerd.capnp'], workerd: true },
  ];
  const results = [];
  for (const { runtime, command, args, workerd } of runtimes.filter(
    (candidate) => only === undefined || only.includes(candidate.runtime),
  )) {
    const milliseconds = await coldStart(command, args, runs, { workerd });
    log(`  cold start, ${runtime}: ${milliseconds.toFixed(0)} ms`);
    results.push({ runtime, milliseconds });
  }
  return results;
}

/**
 * `only`: the runtimes to measure (by name); the others' figures are kept from `previous` (the
 * last raw results), marked with the time and load of the run that measured them.
 */
export async function runRuntimes({
  rounds = 10,
  seconds = 1,
  warmupSeconds = 2,
  coldStartRuns = 7,
  log = console.log,
  only,
  previous,
} = {}) {
  const loadGenerator = await loadGeneratorName();
  const measurements = await throughput({ rounds, seconds, warmupSeconds, log, only });
  const coldStart = await coldStarts(coldStartRuns, log, only);
  const kept = (list) => (only === undefined || previous === undefined ? [] : list.filter((entry) => !only.includes(entry.runtime)));
  const earlier = previous === undefined ? undefined : { at: previous.load?.at, load: previous.load, commit: previous.commit };
  for (const entry of kept(previous?.measurements ?? [])) measurements.push({ ...entry, earlier });
  coldStart.push(...kept(previous?.coldStart ?? []).map((entry) => ({ ...entry, earlier })));
  const versions = {};
  for (const name of ['node26', 'bun', 'deno', 'workerd']) {
    const flag = name === 'workerd' ? ['--version'] : ['--version'];
    versions[name] = (await promisify(execFile)(runtimeBinary(name), flag)).stdout.split('\n')[0].trim();
  }
  versions.node20 = process.version;
  return { rounds, seconds, warmupSeconds, loadGenerator, measurements, coldStart, versions };
}
