#!/usr/bin/env node
// A/B of server scripts on one scenario in short interleaved slots, for a machine whose load comes
// and goes within seconds (other engineers' builds and tests):
//   node bench/profile/interleaved.mjs <scenario id> <cycles> <name>=<server script> ... [--slot S] [--after a,m] [--routes 1,2,5] [--runtime node26|bun|deno]
// Every script is started once, pinned to the server core, and warmed up (3 s of the scenario,
// after the `--after` scenarios). Then each cycle loads every server for `--slot` seconds (1 by
// default), in an order rotated by cycle, and reads its CPU time from /proc. Neighbouring slots
// see nearly the same load, so the per-cycle ratio of CPU µs per request is steadier than that of
// ab-servers.mjs's 5 s visits. Prints, per server, CPU µs/req over all its slots, and the median
// and interquartile range of the per-cycle ratio first/this. `--routes` keeps only those entries
// (numbered from 1) of a mixed scenario's rotation: which part of the mix carries a difference.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { scenarios, withRoutes } from '../http/scenarios.mjs';
import { startNamedServers } from './named-servers.mjs';
import { load } from '../http/load-generator.mjs';
import { runtimeBinary } from '../../test/runtimes/install-runtimes.mjs';
import { compareSlots, loadNow, measureSlots, overall } from '../interleaved/slots.mjs';

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: { slot: { type: 'string', default: '1' }, after: { type: 'string' }, routes: { type: 'string' }, runtime: { type: 'string' } },
});
// `--runtime node26|bun|deno`: every script served by that runtime (from .cache/runtimes/) instead of this Node.
const runtime =
  flags.runtime === undefined
    ? {}
    : {
        command: runtimeBinary(flags.runtime),
        nodeArgs: flags.runtime === 'deno' ? ['run', '--allow-net', '--allow-read', '--allow-env', '--allow-sys'] : [],
        cwd: fileURLToPath(new URL('..', import.meta.url)),
      };
const [scenarioId, cyclesText, ...pairs] = positionals;
const scenario = withRoutes(
  scenarios.find((candidate) => candidate.id === scenarioId),
  flags.routes,
);
if (!scenario || pairs.length === 0) throw new Error('usage: interleaved.mjs <scenario id> <cycles> <name>=<script> ... [--slot S]');
const cycles = Number(cyclesText);
const slot = Number(flags.slot);
const before = (flags.after?.split(',') ?? []).map((id) => scenarios.find((candidate) => candidate.id === id));

const running = [];
try {
  await startNamedServers(pairs, running, { probe: scenario.request ?? { path: '/hello', headers: {} }, ...runtime });
  for (const instance of running) {
    for (const warm of before) await load(instance.port, warm, 3);
    await load(instance.port, scenario, 3);
  }
  const loadBefore = loadNow();
  const { slots, cycleLoad } = await measureSlots(running, scenario, { cycles, slot });
  const [first] = running;
  console.log(
    `${scenario.title}${before.length ? ` after ${flags.after}` : ''}, ${cycles} cycles of ${slot} s slots; load average ${loadBefore} → ${loadNow()} (${Math.min(...cycleLoad)}–${Math.max(...cycleLoad)} in cycles)`,
  );
  for (const instance of running) {
    // this over the first: its CPU per request over this one's (above 1: this one spends less)
    const { byCpu, byRps } = compareSlots(slots[instance.name], slots[first.name]);
    const { cpuUs, share } = overall(slots[instance.name]);
    console.log(
      `${instance.name.padEnd(12)} ${cpuUs.toFixed(1).padStart(6)} µs CPU/req over all slots (core share ${share.toFixed(2)})  ×${first.name} by CPU: median ${byCpu.median.toFixed(3)} (IQR ${byCpu.q1.toFixed(3)}–${byCpu.q3.toFixed(3)})  by req/s: ${byRps.median.toFixed(3)} (${byRps.q1.toFixed(3)}–${byRps.q3.toFixed(3)})`,
    );
  }
} finally {
  for (const instance of running) await instance.process.stop();
}
