#!/usr/bin/env node
// Profiles one server script on Bun or Deno under one scenario's load (Node 22 or later: it uses
// the global WebSocket):
//   node bench/profile/runtime-profile.mjs <bun|deno> <server script> <scenario id> [seconds] [--routes 1,6]
// Bun writes a .cpuprofile itself (`--cpu-prof`, exiting on SIGTERM through exit-on-signal.mjs);
// Deno has no such flag, so its V8 inspector is asked for the profile of the measured load only.
// The server is pinned to the server core and warmed for 3 s. Prints the functions with the most
// self time and by origin; the .cpuprofile is kept in bench/results/raw/.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { scenarios, withRoutes } from '../http/scenarios.mjs';
import { load } from '../http/load-generator.mjs';
import { startServer } from '../http/server-process.mjs';
import { freePort } from '../free-port.mjs';
import { runtimeBinary } from '../../test/runtimes/install-runtimes.mjs';
import { timeByOrigin, topFunctions } from './cpu-profile-summary.mjs';

const { values: flags, positionals } = parseArgs({ allowPositionals: true, options: { routes: { type: 'string' } } });
const [runtime, script, scenarioId = 'b', seconds = '5'] = positionals;
const scenario = withRoutes(
  scenarios.find((candidate) => candidate.id === scenarioId),
  flags.routes,
);
if (!['bun', 'deno'].includes(runtime) || !script || !scenario)
  throw new Error('usage: runtime-profile.mjs <bun|deno> <server script> <scenario id> [seconds] [--routes 1,6]');

const root = fileURLToPath(new URL('../..', import.meta.url));
const profileDir = fileURLToPath(new URL(`../results/raw/profile-${runtime}-${Date.now()}/`, import.meta.url));
await mkdir(profileDir, { recursive: true });
const port = await freePort();
const runtimeArgs =
  runtime === 'bun'
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${profileDir}`,
        '--cpu-prof-interval=100',
        '--preload',
        fileURLToPath(new URL('exit-on-signal.mjs', import.meta.url)),
      ]
    : ['run', '--allow-net', '--allow-read', '--allow-env', '--allow-sys', `--inspect=127.0.0.1:${await freePort()}`];
const server = await startServer({ name: `${runtime} ${script}`, script: resolve(script) }, port, {
  command: runtimeBinary(runtime),
  nodeArgs: runtimeArgs,
  cwd: fileURLToPath(new URL('..', import.meta.url)),
});

/** Deno's inspector (its address is on the server's stderr): one request at a time, answered by id. */
async function inspector() {
  const socket = new WebSocket(/ws:\/\/\S+/.exec(server.stderr())[0]);
  await new Promise((done) => socket.addEventListener('open', done, { once: true }));
  let nextId = 1;
  const waiting = new Map();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(event.data);
    waiting.get(message.id)?.(message.result);
  });
  const send = (method, params = {}) =>
    new Promise((done) => {
      const id = nextId++;
      waiting.set(id, done);
      socket.send(JSON.stringify({ id, method, params }));
    });
  return { send, close: () => socket.close() };
}

let file;
try {
  const session = runtime === 'deno' ? await inspector() : undefined;
  await load(port, scenario, 3);
  await session?.send('Profiler.enable');
  await session?.send('Profiler.setSamplingInterval', { interval: 100 });
  await session?.send('Profiler.start');
  const result = await load(port, scenario, Number(seconds));
  console.log(`${runtime} ${script} ${scenario.id}: ${Math.round(result.rps)} req/s under the profiler`);
  if (session !== undefined) {
    const { profile } = await session.send('Profiler.stop');
    session.close();
    file = `${profileDir}deno.cpuprofile`;
    await writeFile(file, JSON.stringify(profile));
  }
} finally {
  await server.stop();
}
// Bun's profile covers the whole run: only its last seconds are the measured load.
file ??= `${profileDir}${(await readdir(profileDir)).find((name) => name.endsWith('.cpuprofile'))}`;
const window = runtime === 'bun' ? Number(seconds) + 1 : undefined;
console.log(`self time${window ? ` in the last ${window} s` : ' during the load'} (${file}):`);
for (const { name, percent } of await topFunctions(file, 30, root, window)) console.log(`${percent.toFixed(1).padStart(5)}%  ${name}`);
console.log('\nself time by origin:');
for (const { origin, percent } of (await timeByOrigin(file, root, window)).slice(0, 12))
  console.log(`${percent.toFixed(1).padStart(5)}%  ${origin}`);
