// Every target of the performance issue, measured one way: interleaved 1-second slots
// (../interleaved/slots.mjs), Kiln against raw node:http and its peers on Node 26 (the headline),
// Node 24 and Node 20, Bun and Deno; requestLogger()'s cost on route (b); the cold start of the
// esbuild bundle against raw node:http on Node 26. Each group of servers is started once, checked,
// warmed, then loaded in rotated 1-second slots; a target's figure is the median of its per-cycle
// ratios with their interquartile range, and its verdict says "level" when that range contains
// the target. Processes are reused within a runtime the way bench/http uses them: 'fresh' serves
// route (b) only; 'main' serves (c), (e), (m) and then (b) again (b2: route (b) after other routes).
import { execFile } from 'node:child_process';
import { freePort } from '../free-port.mjs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { scenarios } from '../http/scenarios.mjs';
import { servers as nodeServerList } from '../http/servers.mjs';
import { startServer } from '../http/server-process.mjs';
import { checkServer } from '../http/check-server.mjs';
import { load, loadGeneratorName } from '../http/load-generator.mjs';
import { compareSlots, loadNow, measureSlots, quartiles } from '../interleaved/slots.mjs';
import { runtimeBinary } from '../../test/runtimes/install-runtimes.mjs';
import { kilnApp } from '../generated-apps/kiln-app.mjs';
import { rawNodeApp } from '../generated-apps/raw-node-app.mjs';
import { lastRoutePath } from '../generated-apps/route-spread.mjs';
import { writeApp } from '../generated-apps/write-app.mjs';
import { firstResponse } from '../cold-start/first-response.mjs';

const run = promisify(execFile);

const bench = fileURLToPath(new URL('..', import.meta.url));
const scenario = (id) => scenarios.find((candidate) => candidate.id === id);
const nodeScript = (name) => nodeServerList.find((server) => server.name === name).script;
const denoRun = ['run', '--allow-net', '--allow-read', '--allow-env', '--allow-sys'];

/** Each runtime: its binary, arguments before the script, and its servers by name. */
function runtimes() {
  const node = (binary) => ({
    command: binary,
    args: [],
    servers: {
      ...Object.fromEntries(['node:http (raw)', 'Kiln', 'Kiln + requestLogger', 'Fastify', 'Hono'].map((name) => [name, nodeScript(name)])),
      // Where requestLogger()'s cost goes: pino's lines without the file, and Kiln's part alone.
      [loggerToNull]: { script: nodeScript('Kiln + requestLogger'), args: ['--sink', 'null'] },
      [loggerDropping]: { script: nodeScript('Kiln + requestLogger'), args: ['--sink', 'noop'] },
      // The A/A control: the same server in a second process, to show how far two identical processes differ.
      [kilnAgain]: nodeScript('Kiln'),
    },
  });
  return {
    'Node 26': node(runtimeBinary('node26')),
    'Node 24': node(runtimeBinary('node24')),
    'Node 20': node(process.execPath),
    Bun: {
      command: runtimeBinary('bun'),
      args: [],
      servers: {
        Kiln: join(bench, 'runtimes/servers/kiln.mjs'),
        Elysia: join(bench, 'runtimes/servers/elysia-bun.mjs'),
        Hono: join(bench, 'runtimes/servers/hono-bun.mjs'),
      },
    },
    Deno: {
      command: runtimeBinary('deno'),
      args: denoRun,
      servers: { Kiln: join(bench, 'runtimes/servers/kiln.mjs'), Hono: join(bench, 'runtimes/servers/hono-deno.mjs') },
    },
  };
}

const raw = 'node:http (raw)';
const kilnAgain = 'Kiln, a second process';
const loggerToNull = 'Kiln + requestLogger, pino to /dev/null';
const loggerDropping = 'Kiln + requestLogger, a logger that drops lines';
const nodeGroups = (runtime, cycles) => [
  { id: `${runtime}:b`, runtime, scenario: 'b', process: 'fresh', servers: [raw, 'Kiln', 'Fastify'], cycles },
  { id: `${runtime}:m`, runtime, scenario: 'm', process: 'main', servers: [raw, 'Kiln', 'Fastify'], cycles },
  { id: `${runtime}:b2`, runtime, scenario: 'b2', process: 'main', after: ['m'], servers: [raw, 'Kiln', 'Fastify'], cycles },
];

/** The groups measured, in order (a runtime's 'main' processes serve its groups in this order). */
export function targetGroups({ quick = false } = {}) {
  const cycles = (full) => (quick ? 3 : full);
  return [
    {
      id: 'Node 26:b',
      runtime: 'Node 26',
      scenario: 'b',
      process: 'fresh',
      servers: [raw, 'Kiln', 'Fastify', kilnAgain],
      cycles: cycles(20),
    },
    {
      id: 'Node 26:logger',
      runtime: 'Node 26',
      scenario: 'b',
      process: 'fresh',
      servers: ['Kiln', 'Kiln + requestLogger', loggerToNull, loggerDropping],
      cycles: cycles(15),
    },
    { id: 'Node 26:c', runtime: 'Node 26', scenario: 'c', process: 'main', servers: [raw, 'Kiln', 'Fastify'], cycles: cycles(12) },
    { id: 'Node 26:e', runtime: 'Node 26', scenario: 'e', process: 'main', servers: [raw, 'Kiln', 'Fastify'], cycles: cycles(12) },
    { id: 'Node 26:m', runtime: 'Node 26', scenario: 'm', process: 'main', servers: [raw, 'Kiln', 'Fastify'], cycles: cycles(20) },
    {
      id: 'Node 26:b2',
      runtime: 'Node 26',
      scenario: 'b2',
      process: 'main',
      after: ['c', 'e', 'm'],
      servers: [raw, 'Kiln', 'Fastify'],
      cycles: cycles(20),
    },
    ...nodeGroups('Node 24', cycles(10)),
    ...nodeGroups('Node 20', cycles(10)),
    { id: 'Bun:b', runtime: 'Bun', scenario: 'b', process: 'fresh', servers: ['Kiln', 'Elysia', 'Hono'], cycles: cycles(12) },
    { id: 'Bun:m', runtime: 'Bun', scenario: 'm', process: 'main', servers: ['Kiln', 'Elysia', 'Hono'], cycles: cycles(12) },
    { id: 'Deno:b', runtime: 'Deno', scenario: 'b', process: 'fresh', servers: ['Kiln', 'Hono'], cycles: cycles(15) },
    { id: 'Deno:m', runtime: 'Deno', scenario: 'm', process: 'main', servers: ['Kiln', 'Hono'], cycles: cycles(15) },
  ];
}

/** The targets: each a row of the report, read from one group's slots (Kiln first, the other second). */
export const targets = [
  ...['Node 26', 'Node 24', 'Node 20'].flatMap((runtime) => [
    { title: '(b) fresh ≥ 0.95× raw node:http', group: `${runtime}:b`, ours: 'Kiln', theirs: raw, atLeast: 0.95 },
    { title: '(b2) (b) after other routes ≥ 0.95× raw node:http', group: `${runtime}:b2`, ours: 'Kiln', theirs: raw, atLeast: 0.95 },
    { title: '(m) mixed traffic ≥ 0.95× raw node:http', group: `${runtime}:m`, ours: 'Kiln', theirs: raw, atLeast: 0.95 },
    { title: '(b) ≥ 1.1× Fastify', group: `${runtime}:b`, ours: 'Kiln', theirs: 'Fastify', atLeast: 1.1 },
    { title: '(b2) ≥ 1.1× Fastify', group: `${runtime}:b2`, ours: 'Kiln', theirs: 'Fastify', atLeast: 1.1 },
    ...(runtime === 'Node 26'
      ? [
          { title: '(c) ≥ 1.1× Fastify', group: `${runtime}:c`, ours: 'Kiln', theirs: 'Fastify', atLeast: 1.1 },
          { title: '(e) ≥ 1.1× Fastify', group: `${runtime}:e`, ours: 'Kiln', theirs: 'Fastify', atLeast: 1.1 },
        ]
      : []),
    { title: '(m) ≥ 1.1× Fastify', group: `${runtime}:m`, ours: 'Kiln', theirs: 'Fastify', atLeast: 1.1 },
  ]),
  {
    title: '(b) with requestLogger() (pino to a file): ≤ 10% more CPU per request, i.e. ≥ 0.91× Kiln without it',
    group: 'Node 26:logger',
    ours: 'Kiln + requestLogger',
    theirs: 'Kiln',
    atLeast: 1 / 1.1,
  },
  {
    title: '(b) requestLogger() with pino writing to /dev/null (no file system), against Kiln without it',
    group: 'Node 26:logger',
    ours: loggerToNull,
    theirs: 'Kiln',
    atLeast: 1 / 1.1,
  },
  {
    title: "(b) requestLogger() with a logger that drops every line (Kiln's own part), against Kiln without it",
    group: 'Node 26:logger',
    ours: loggerDropping,
    theirs: 'Kiln',
    atLeast: 1 / 1.1,
  },
  {
    title: "A/A control: Kiln against the same Kiln in a second process, (b) (the method's own spread: expect level)",
    group: 'Node 26:b',
    ours: 'Kiln',
    theirs: kilnAgain,
    atLeast: 1,
  },
  { title: 'cold start of the esbuild bundle ≤ 1.3× raw node:http', group: 'Node 26:cold-start', coldStart: true, atMost: 1.3 },
  ...['b', 'm'].flatMap((id) => [
    { title: `(${id}) ≥ 1.0× Elysia`, group: `Bun:${id}`, ours: 'Kiln', theirs: 'Elysia', atLeast: 1 },
    { title: `(${id}) ≥ 1.0× Hono`, group: `Bun:${id}`, ours: 'Kiln', theirs: 'Hono', atLeast: 1 },
  ]),
  ...['b', 'm'].map((id) => ({ title: `(${id}) ≥ 1.0× Hono`, group: `Deno:${id}`, ours: 'Kiln', theirs: 'Hono', atLeast: 1 })),
];

async function versionOf(runtime, command) {
  const { stdout } = await run(command, ['--version']);
  const first = stdout.split('\n')[0].trim();
  return runtime.startsWith('Node') ? `Node ${first}` : runtime === 'Bun' ? `Bun ${first}` : first.replace(/ \(.*\)$/, '');
}

/** Measures one group on its runtime's processes (started on first use, kept for later groups). */
async function measureGroup(group, spec, processes, { warmSeconds, log }) {
  const probe = { path: '/users/42?active=true&tags=a&tags=b', headers: { 'x-request-id': 'abc' } };
  const instances = [];
  for (const name of group.servers) {
    const key = `${name}|${group.process}`;
    if (!processes.has(key)) {
      const entry = typeof spec.servers[name] === 'string' ? { script: spec.servers[name], args: [] } : spec.servers[name];
      const start = async () => {
        const port = await freePort();
        const process = await startServer({ name, script: entry.script }, port, {
          command: spec.command,
          nodeArgs: spec.args,
          extraArgs: entry.args,
          cwd: bench,
          probe: group.process === 'fresh' ? probe : { path: '/hello', headers: {} },
        });
        return { port, process };
      };
      // A port the system just handed out can be taken by another process before the server binds it: try again.
      const { port, process } = await start().catch((error) => (/EADDRINUSE/.test(error.message) ? start() : Promise.reject(error)));
      processes.set(key, { name, port, process, served: new Set() });
    }
    instances.push(processes.get(key));
  }
  const measured = scenario(group.scenario);
  for (const instance of instances) {
    await checkServer({ name: instance.name }, instance.port, [measured]);
    for (const id of group.after ?? []) if (!instance.served.has(id)) await load(instance.port, scenario(id), warmSeconds);
    await load(instance.port, measured, warmSeconds);
    instance.served.add(group.scenario);
  }
  const before = loadNow();
  const at = `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const slots = await measureSlots(instances, measured, { cycles: group.cycles, log });
  return { ...group, at, load: { before, after: loadNow() }, ...slots };
}

/** Cold start of Kiln's bundle and raw node:http on Node 26, in alternating pairs: the per-pair ratio. */
async function coldStartGroup(runs, log) {
  const routeCount = 200;
  const rawDir = await writeApp('targets-cold-raw-node', rawNodeApp(routeCount));
  const bundleDir = await writeApp('targets-cold-kiln-bundle', kilnApp(routeCount, { transformer: true }));
  await run(process.execPath, [join(bench, 'build-overhead/esbuild-build.mjs'), bundleDir, 'full']);
  const node26 = runtimeBinary('node26');
  const path = lastRoutePath(routeCount);
  const before = loadNow();
  const at = `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const pairs = [];
  // One unmeasured pair first: the page cache, not the start-up, would be measured otherwise.
  for (let i = -1; i < runs; i++) {
    const rawRun = await firstResponse(join(rawDir, 'dist/main.js'), 3421, path, undefined, node26);
    const bundleRun = await firstResponse(join(bundleDir, 'bundle/server.mjs'), 3421, path, undefined, node26);
    if (i >= 0)
      pairs.push({ rawMs: rawRun.milliseconds, bundleMs: bundleRun.milliseconds, rawCpuMs: rawRun.cpuMs, bundleCpuMs: bundleRun.cpuMs });
  }
  log(`    cold start, Node 26, wall: ${pairs.map((pair) => `${(pair.bundleMs / pair.rawMs).toFixed(2)}`).join(' ')}`);
  log(`    cold start, Node 26, CPU: ${pairs.map((pair) => `${(pair.bundleCpuMs / pair.rawCpuMs).toFixed(2)}`).join(' ')}`);
  return { id: 'Node 26:cold-start', runtime: 'Node 26', routeCount, at, load: { before, after: loadNow() }, pairs };
}

/**
 * `only`: a pattern of group ids to measure (the others keep `previous`'s figures, each marked
 * with the time and load of its own run).
 */
export async function runTargets({ quick = false, only, previous, log = console.log } = {}) {
  const specs = runtimes();
  const chosen = targetGroups({ quick }).filter((group) => only === undefined || only.test(group.id));
  const measureColdStart = only === undefined || only.test('Node 26:cold-start');
  const warmSeconds = quick ? 1 : 2;
  log(`targets: ${chosen.length} groups of 1 s slots, ${await loadGeneratorName()}`);
  const groups = [];
  const versions = { ...(previous?.versions ?? {}) };
  for (const runtime of Object.keys(specs)) {
    const mine = chosen.filter((group) => group.runtime === runtime);
    if (mine.length === 0 && !(runtime === 'Node 26' && measureColdStart)) continue;
    versions[runtime] = await versionOf(runtime, specs[runtime].command);
    const processes = new Map();
    try {
      for (const group of mine) {
        log(`  ${group.id}: ${group.servers.join(', ')}, ${group.cycles} cycles (load ${loadNow()})`);
        // A group that fails (a server that would not start) is reported as not measured; the others are kept.
        try {
          groups.push({ ...(await measureGroup(group, specs[runtime], processes, { warmSeconds, log })), version: versions[runtime] });
        } catch (error) {
          log(`  ${group.id} failed: ${error.message.split('\n')[0]}`);
        }
      }
    } finally {
      for (const { process } of processes.values()) await process.stop();
    }
    if (runtime === 'Node 26' && measureColdStart) {
      log(`  Node 26:cold-start (load ${loadNow()})`);
      groups.push({ ...(await coldStartGroup(quick ? 3 : 9, log)), version: versions[runtime] });
    }
  }
  const measuredIds = new Set(groups.map((group) => group.id));
  for (const group of previous?.groups ?? []) if (!measuredIds.has(group.id)) groups.push({ ...group, earlier: true });
  return { quick, groups, versions };
}

/** One report row per target, from the groups' slots. */
export function targetFigures(result) {
  return targets.map((target) => {
    const group = result.groups.find((candidate) => candidate.id === target.group);
    if (group === undefined) return { target, measured: false };
    if (target.coldStart) {
      const ratio = quartiles(group.pairs.map((pair) => pair.bundleMs / pair.rawMs));
      return { target, group, measured: true, byCpu: ratio, coldStart: group.pairs };
    }
    return { target, group, measured: true, ...compareSlots(group.slots[target.ours], group.slots[target.theirs]) };
  });
}
