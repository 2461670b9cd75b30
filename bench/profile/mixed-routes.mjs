#!/usr/bin/env node
// The cost of each route of the mixed traffic (m), one route at a time, in processes warmed by (m):
//   node bench/profile/mixed-routes.mjs <rounds> <name>=<server script> ... [--seconds N] [--routes 1,6]
// Every script is started once, pinned to the server core, and loaded with (m) for 3 s. Then, for
// each round and each route of mixed-traffic.mjs (or those `--routes` numbers, from 1), every
// server in a rotated order gets that route alone (1 s warm-up, `--seconds` measured, 3 by
// default) and its CPU µs per request is read from /proc. At the end: per route, each server's
// median CPU µs/req, its median excess over the first server's, and its median per-round ratio
// first/this. Which routes carry a framework's gap to raw node:http, measured the way
// ab-servers.mjs measures one scenario.
import { parseArgs } from 'node:util';
import { scenarios } from '../http/scenarios.mjs';
import { mixedRequests } from '../http/mixed-traffic.mjs';
import { startNamedServers } from './named-servers.mjs';
import { median } from '../report/statistics.mjs';
import { load } from '../http/load-generator.mjs';
import { cpuSeconds } from '../http/process-cpu.mjs';

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: { seconds: { type: 'string', default: '3' }, routes: { type: 'string' } },
});
const [roundsText, ...pairs] = positionals;
if (pairs.length === 0) throw new Error('usage: mixed-routes.mjs <rounds> <name>=<script> ... [--seconds N] [--routes 1,6]');
const rounds = Number(roundsText);
const seconds = Number(flags.seconds);
const chosen = flags.routes?.split(',').map((n) => Number(n) - 1) ?? mixedRequests.map((_, i) => i);
const routes = chosen.map((i) => ({ id: `m${i + 1}`, title: mixedRequests[i].shape, mixed: [mixedRequests[i]] }));
const mixed = scenarios.find((scenario) => scenario.id === 'm');

const running = [];
try {
  await startNamedServers(pairs, running);
  for (const instance of running) instance.cpu = routes.map(() => []);
  for (const instance of running) await load(instance.port, mixed, 3);
  for (let round = 0; round < rounds; round++) {
    const offset = round % running.length;
    const order = [...running.slice(offset), ...running.slice(0, offset)];
    for (const [r, route] of routes.entries()) {
      for (const instance of order) {
        await load(instance.port, route, 1);
        const before = cpuSeconds(instance.process.pid);
        const result = await load(instance.port, route, seconds);
        if (result.errors > 0) throw new Error(`${instance.name} ${route.title}: ${result.errors} bad answers`);
        instance.cpu[r].push(((cpuSeconds(instance.process.pid) - before) * 1e6) / result.requests);
      }
      console.log(
        `round ${round + 1} ${route.id} ${route.title}: ${running.map((i) => `${i.name} ${i.cpu[r].at(-1).toFixed(1)}`).join(', ')} µs CPU/req`,
      );
    }
  }
  const [first] = running;
  console.log(
    `\nper route, ${rounds} rounds of ${seconds} s, after (m): median CPU µs/req (median excess over ${first.name}; median per-round ratio ${first.name}/this)`,
  );
  console.log(`| route | ${running.map((i) => i.name).join(' | ')} |`);
  console.log(`|---|${running.map(() => '---:').join('|')}|`);
  const totals = running.map(() => 0);
  for (const [r, route] of routes.entries()) {
    const cells = running.map((instance, s) => {
      const cpu = median(instance.cpu[r]);
      const excess = median(instance.cpu[r].map((value, round) => value - first.cpu[r][round]));
      totals[s] += excess;
      const ratio = median(instance.cpu[r].map((value, round) => first.cpu[r][round] / value));
      return instance === first
        ? cpu.toFixed(1)
        : `${cpu.toFixed(1)} (${excess >= 0 ? '+' : ''}${excess.toFixed(1)}; ${ratio.toFixed(2)}×)`;
    });
    console.log(`| ${route.request?.path ?? `${route.mixed[0].request.method} ${route.mixed[0].request.path}`} | ${cells.join(' | ')} |`);
  }
  console.log(
    `| sum of median excesses | ${totals.map((total, s) => (s === 0 ? '' : `${total >= 0 ? '+' : ''}${total.toFixed(1)}`)).join(' | ')} |`,
  );
} finally {
  for (const instance of running) await instance.process.stop();
}
