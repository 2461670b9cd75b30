#!/usr/bin/env node
// A/B of server scripts on one scenario in short interleaved slots, for a machine whose load comes
// and goes within seconds (other engineers' builds and tests):
//   node bench/profile/interleaved.mjs <scenario id> <cycles> <name>=<server script> ... [--slot S] [--after a,m] [--routes 1,2,5]
// Every script is started once, pinned to the server core, and warmed up (3 s of the scenario,
// after the `--after` scenarios). Then each cycle loads every server for `--slot` seconds (1 by
// default), in an order rotated by cycle, and reads its CPU time from /proc. Neighbouring slots
// see nearly the same load, so the per-cycle ratio of CPU µs per request is steadier than that of
// ab-servers.mjs's 5 s visits. Prints, per server, CPU µs/req over all its slots, and the median
// and interquartile range of the per-cycle ratio first/this. `--routes` keeps only those entries
// (numbered from 1) of a mixed scenario's rotation: which part of the mix carries a difference.
import { parseArgs } from 'node:util';
import { scenarios } from '../http/scenarios.mjs';
import { startNamedServers } from './named-servers.mjs';
import { load } from '../http/load-generator.mjs';
import { cpuSeconds } from '../http/process-cpu.mjs';

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: { slot: { type: 'string', default: '1' }, after: { type: 'string' }, routes: { type: 'string' } },
});
const [scenarioId, cyclesText, ...pairs] = positionals;
let scenario = scenarios.find((candidate) => candidate.id === scenarioId);
if (flags.routes !== undefined && scenario?.mixed !== undefined) {
  const kept = flags.routes.split(',').map((n) => scenario.mixed[Number(n) - 1]);
  scenario = { ...scenario, id: `${scenario.id}-${flags.routes}`, title: `${scenario.title}, routes ${flags.routes} only`, mixed: kept };
}
if (!scenario || pairs.length === 0) throw new Error('usage: interleaved.mjs <scenario id> <cycles> <name>=<script> ... [--slot S]');
const cycles = Number(cyclesText);
const slot = Number(flags.slot);
const before = (flags.after?.split(',') ?? []).map((id) => scenarios.find((candidate) => candidate.id === id));

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return sorted[low] + (sorted[Math.ceil(at)] - sorted[low]) * (at - low);
};

const running = [];
try {
  await startNamedServers(pairs, running, { probe: scenario.request ?? { path: '/hello', headers: {} } });
  for (const instance of running) Object.assign(instance, { cpu: [], requests: [] });
  for (const instance of running) {
    for (const warm of before) await load(instance.port, warm, 3);
    await load(instance.port, scenario, 3);
  }
  for (let cycle = 0; cycle < cycles; cycle++) {
    const offset = cycle % running.length;
    for (const instance of [...running.slice(offset), ...running.slice(0, offset)]) {
      const cpuBefore = cpuSeconds(instance.process.pid);
      const result = await load(instance.port, scenario, slot);
      if (result.errors > 0) throw new Error(`${instance.name}: ${result.errors} bad answers`);
      instance.cpu.push(cpuSeconds(instance.process.pid) - cpuBefore);
      instance.requests.push(result.requests);
    }
  }
  const [first] = running;
  const perRequest = (instance, i) => instance.cpu[i] / instance.requests[i];
  console.log(`${scenario.title}${before.length ? ` after ${flags.after}` : ''}, ${cycles} cycles of ${slot} s slots`);
  for (const instance of running) {
    const total = (instance.cpu.reduce((a, b) => a + b, 0) * 1e6) / instance.requests.reduce((a, b) => a + b, 0);
    // a slot in which wrk got no answer through (a stalled machine) has no ratio
    const ratios = instance.cpu.map((_, i) => perRequest(first, i) / perRequest(instance, i)).filter(Number.isFinite);
    console.log(
      `${instance.name.padEnd(12)} ${total.toFixed(1).padStart(6)} µs CPU/req over all slots  ×${first.name} by CPU: median ${quantile(ratios, 0.5).toFixed(3)} (IQR ${quantile(ratios, 0.25).toFixed(3)}–${quantile(ratios, 0.75).toFixed(3)})`,
    );
  }
} finally {
  for (const instance of running) await instance.process.stop();
}
