#!/usr/bin/env node
// Profiles one benchmark server under one scenario's load:
//   node bench/profile/profile-server.mjs <server name pattern> <scenario id> [seconds]
// Starts the server pinned with --cpu-prof, warms it up, loads it, stops it, prints the
// functions with the most self time. The .cpuprofile is kept in bench/results/raw/.
import { mkdir, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { servers } from '../http/servers.mjs';
import { scenarios } from '../http/scenarios.mjs';
import { startServer } from '../http/server-process.mjs';
import { checkServer } from '../http/check-server.mjs';
import { load } from '../http/load-generator.mjs';
import { timeByOrigin, topFunctions } from './cpu-profile-summary.mjs';

const [pattern = 'Kiln', scenarioId = 'b', seconds = '5'] = process.argv.slice(2);
const server = servers.find((candidate) => new RegExp(pattern, 'i').test(candidate.name));
const scenario = scenarios.find((candidate) => candidate.id === scenarioId);
if (!server || !scenario) throw new Error('usage: profile-server.mjs <server pattern> <a|b|c|d> [seconds]');

const profileDir = fileURLToPath(new URL(`../results/raw/profile-${Date.now()}/`, import.meta.url));
await mkdir(profileDir, { recursive: true });
const exitOnSignal = fileURLToPath(new URL('exit-on-signal.mjs', import.meta.url));
const port = 3430;
const running = await startServer(server, port, {
  rateLimited: scenario.rateLimited,
  nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--import', exitOnSignal],
});
try {
  await checkServer(server, port, [scenario]);
  await load(port, scenario.request, 2);
  const result = await load(port, scenario.request, Number(seconds));
  console.log(`${server.name} ${scenario.title}: ${Math.round(result.rps)} req/s under the profiler`);
} finally {
  await running.stop();
}
const [file] = await readdir(profileDir);
const root = fileURLToPath(new URL('../..', import.meta.url));
for (const { name, percent } of await topFunctions(`${profileDir}/${file}`, 30, root)) {
  console.log(`${percent.toFixed(1).padStart(5)}%  ${name}`);
}
console.log('\nself time by origin:');
for (const { origin, percent } of (await timeByOrigin(`${profileDir}/${file}`, root)).slice(0, 12)) {
  console.log(`${percent.toFixed(1).padStart(5)}%  ${origin}`);
}
console.log(`profile: ${profileDir}${file}`);
