#!/usr/bin/env node
// Profiles one benchmark server under one scenario's load:
//   node bench/profile/profile-server.mjs <server name pattern> <scenario id> [seconds] [--after a,m] [--node <flag>]...
// Starts the server pinned with --cpu-prof, runs the `--after` scenarios on it first (for 'b2',
// by default a, c, e and m: the process the bench measures it in), warms it up, loads it, stops
// it, prints the functions with the most self time. The .cpuprofile is kept in bench/results/raw/.
// `--node --trace-deopt` (or any V8 flag) is passed to the server; its output is saved beside the profile.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { servers } from '../http/servers.mjs';
import { scenarios } from '../http/scenarios.mjs';
import { startServer } from '../http/server-process.mjs';
import { checkServer } from '../http/check-server.mjs';
import { load } from '../http/load-generator.mjs';
import { timeByOrigin, topFunctions } from './cpu-profile-summary.mjs';

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: { after: { type: 'string' }, node: { type: 'string', multiple: true, default: [] } },
});
const [pattern = 'Kiln', scenarioId = 'b', seconds = '5'] = positionals;
const server = servers.find((candidate) => new RegExp(pattern, 'i').test(candidate.name));
const scenario = scenarios.find((candidate) => candidate.id === scenarioId);
if (!server || !scenario)
  throw new Error(`usage: profile-server.mjs <server pattern> <${scenarios.map((s) => s.id).join('|')}> [seconds] [--after a,m]`);
const afterIds = flags.after?.split(',') ?? (scenarioId === 'b2' ? ['a', 'c', 'e', 'm', 'mw'] : []);
const before = afterIds.map((id) => scenarios.find((candidate) => candidate.id === id));

const profileDir = fileURLToPath(new URL(`../results/raw/profile-${Date.now()}/`, import.meta.url));
await mkdir(profileDir, { recursive: true });
const exitOnSignal = fileURLToPath(new URL('exit-on-signal.mjs', import.meta.url));
const port = 20_000 + Math.floor(Math.random() * 20_000);
const running = await startServer(server, port, {
  rateLimited: scenario.rateLimited,
  nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--import', exitOnSignal, ...flags.node],
  probe: scenario.request ?? { path: '/hello', headers: {} },
});
try {
  await checkServer(server, port, [...before, scenario]);
  for (const warm of before) await load(port, warm, 3);
  await load(port, scenario, 2);
  const result = await load(port, scenario, Number(seconds));
  console.log(
    `${server.name} ${scenario.title}${before.length ? ` (after ${afterIds.join(', ')})` : ''}: ${Math.round(result.rps)} req/s under the profiler`,
  );
} finally {
  await running.stop();
  if (flags.node.length > 0) await writeFile(`${profileDir}/v8-trace.txt`, running.stderr());
}
const [file] = (await readdir(profileDir)).filter((name) => name.endsWith('.cpuprofile'));
const root = fileURLToPath(new URL('../..', import.meta.url));
// Only the measured load's samples (plus the second the server takes to stop), not the warm-ups.
const window = Number(seconds) + 1;
console.log(`busy samples of the last ${window} s of the profile:`);
for (const { name, percent } of await topFunctions(`${profileDir}/${file}`, 30, root, window)) {
  console.log(`${percent.toFixed(1).padStart(5)}%  ${name}`);
}
console.log('\nself time by origin:');
for (const { origin, percent } of (await timeByOrigin(`${profileDir}/${file}`, root, window)).slice(0, 12)) {
  console.log(`${percent.toFixed(1).padStart(5)}%  ${origin}`);
}
console.log(`profile: ${profileDir}${file}`);
