#!/usr/bin/env node
// A/B of server scripts on one scenario, in one process set, rounds alternating:
//   node bench/profile/ab-servers.mjs <scenario id> <rounds> <name>=<server script> ...
// e.g. `raw=bench/http/servers/raw-node.mjs main=bench/build/kiln/http/servers/kiln/server.js
// old=/work/wt/old/bench/build/kiln/http/servers/kiln/server.js` (a second worktree built at an
// older commit). Every script is started once, pinned to the server core; each round visits all of
// them in a rotated order (2 s warm-up, 5 s measured) and prints req/s and CPU µs per request (the
// figure a loaded machine disturbs least); at the end, the medians and each one's median per-round
// CPU ratio to the first. `--after a,m` loads those scenarios on every process first (a process that
// has served other routes, as the bench's b2). `--seconds N` changes the measured time. `--runtime
// bun|deno` serves every script with that runtime (from .cache/runtimes/) instead of this Node.
// `--route N` loads only the Nth request of the mixed traffic (m), to compare (m) route by route.
import { parseArgs } from 'node:util';
import { scenarios } from '../http/scenarios.mjs';
import { mixedRequests } from '../http/mixed-traffic.mjs';
import { startNamedServers } from './named-servers.mjs';
import { median } from '../report/statistics.mjs';
import { load } from '../http/load-generator.mjs';
import { cpuSeconds } from '../http/process-cpu.mjs';
import { runtimeBinary } from '../../test/runtimes/install-runtimes.mjs';

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: { after: { type: 'string' }, seconds: { type: 'string', default: '5' }, runtime: { type: 'string' }, route: { type: 'string' } },
});
const [scenarioId, roundsText, ...pairs] = positionals;
const route = flags.route === undefined ? undefined : mixedRequests[Number(flags.route) - 1];
const scenario =
  route === undefined
    ? scenarios.find((candidate) => candidate.id === scenarioId)
    : { id: `m${flags.route}`, title: `(m) route ${flags.route} alone: ${route.shape}`, mixed: [route] };
if (!scenario || pairs.length === 0) throw new Error('usage: ab-servers.mjs <scenario id> <rounds> <name>=<script> ...');
const rounds = Number(roundsText);
const seconds = Number(flags.seconds);
const before = (flags.after?.split(',') ?? []).map((id) => scenarios.find((candidate) => candidate.id === id));
const runtime =
  flags.runtime === undefined
    ? {}
    : {
        command: runtimeBinary(flags.runtime),
        nodeArgs: flags.runtime === 'deno' ? ['run', '--allow-net', '--allow-read', '--allow-env', '--allow-sys'] : [],
      };

const running = [];
try {
  await startNamedServers(pairs, running, {
    probe: [scenario.request ?? scenario.mixed[0].request].find((request) => request.method === 'GET') ?? { path: '/hello', headers: {} },
    ...runtime,
  });
  for (const instance of running) Object.assign(instance, { rps: [], cpu: [] });
  for (const instance of running) for (const warm of before) await load(instance.port, warm, 3);
  for (let round = 0; round < rounds; round++) {
    const offset = round % running.length;
    for (const instance of [...running.slice(offset), ...running.slice(0, offset)]) {
      await load(instance.port, scenario, 2);
      const cpuBefore = cpuSeconds(instance.process.pid);
      const result = await load(instance.port, scenario, seconds);
      if (result.errors > 0) throw new Error(`${instance.name}: ${result.errors} bad answers`);
      const cpu = ((cpuSeconds(instance.process.pid) - cpuBefore) * 1e6) / result.requests;
      instance.rps.push(result.rps);
      instance.cpu.push(cpu);
      console.log(
        `round ${round + 1} ${instance.name.padEnd(12)} ${Math.round(result.rps).toString().padStart(7)} req/s ${cpu.toFixed(1).padStart(6)} µs CPU/req`,
      );
    }
  }
  const [first] = running;
  console.log(
    `\n${scenario.title}${before.length ? ` after ${flags.after}` : ''}, ${rounds} rounds: median req/s, median CPU µs/req, median per-round CPU ratio (first/this)`,
  );
  for (const instance of running) {
    const ratio = median(instance.cpu.map((cpu, round) => first.cpu[round] / cpu));
    const rpsRatio = median(instance.rps.map((rps, round) => rps / first.rps[round]));
    console.log(
      `${instance.name.padEnd(12)} ${Math.round(median(instance.rps)).toString().padStart(7)} req/s ${median(instance.cpu).toFixed(1).padStart(6)} µs/req  ×first by CPU ${ratio.toFixed(2)}  by req/s ${rpsRatio.toFixed(2)}`,
    );
  }
} finally {
  for (const instance of running) await instance.process.stop();
}
