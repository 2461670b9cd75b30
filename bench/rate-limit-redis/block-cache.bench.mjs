// RedisStore's block cache: requests of a blocked key per second, cache on against cache off, in
// the same run with the interleaved method (bench/interleaved/slots.mjs): both servers started
// once, then loaded in turn for one-second slots, the order rotated every cycle, each slot's server
// CPU read from /proc. Before timing it checks that both answer the blocked key 429 with the same
// Retry-After, and counts (INFO commandstats) that the cached one runs no script for it.
// Usage: node bench/rate-limit-redis/block-cache.bench.mjs [--cycles=20] [--slot=1]
//   (after `npm run build`, `npm ci --prefix bench` and `npx tspc -p bench/tsconfig.kiln.json`)
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { numberOption } from '../command-line.mjs';
import { freePort } from '../free-port.mjs';
import { load, loadGeneratorName } from '../http/load-generator.mjs';
import { cpuSeconds } from '../http/process-cpu.mjs';
import { loadCore, startServer } from '../http/server-process.mjs';
import { loadNow, quartiles } from '../interleaved/slots.mjs';

const cycles = numberOption('cycles', 20);
const slot = numberOption('slot', 1);
const path = '/users/42?active=true&tags=a&tags=b';
const blocked = { 'x-request-id': 'abc', 'x-client': 'blocked' };

async function scriptCalls(admin) {
  const info = await admin.info('commandstats');
  let calls = 0;
  for (const [, name, count] of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm))
    if (name === 'evalsha' || name === 'eval') calls += Number(count);
  return calls;
}

const redisPort = await freePort();
// pinned to the load generator's core: the server core stays the app's
const redisChild = spawn(
  'taskset',
  ['-c', String(loadCore), 'redis-server', '--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
  {
    stdio: 'ignore',
  },
);
const admin = new Redis(redisPort, '127.0.0.1', { retryStrategy: () => 50 });
const quiet = () => {};
admin.on('error', quiet);
await admin.ping();
process.env.REDIS_URL = `redis://127.0.0.1:${redisPort}`;

const script = new URL('./servers/kiln-blocked.mjs', import.meta.url).pathname;
const servers = [];
try {
  for (const [name, cache] of [
    ['cache on', 'on'],
    ['cache off', 'off'],
  ]) {
    process.env.BLOCK_CACHE = cache;
    process.env.RL_PREFIX = `bench-block-${cache}:`;
    const port = await freePort();
    const child = await startServer({ name, script }, port, { probe: { path, headers: { 'x-request-id': 'abc' } } });
    servers.push({ name, port, process: child });
  }
  // correctness first: the first request passes, the second starts the block, both answer it alike
  for (const server of servers) {
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`http://127.0.0.1:${server.port}${path}`, { headers: blocked });
      await r.arrayBuffer();
      statuses.push(`${r.status} ${r.headers.get('retry-after')}`);
    }
    if (statuses.join() !== '200 null,429 3600,429 3600') throw new Error(`${server.name}: ${statuses.join()}`);
    const before = await scriptCalls(admin);
    for (let i = 0; i < 50; i++) await (await fetch(`http://127.0.0.1:${server.port}${path}`, { headers: blocked })).arrayBuffer();
    server.calls = (await scriptCalls(admin)) - before;
  }
  if (servers[0].calls !== 0 || servers[1].calls !== 50)
    throw new Error(`script calls for 50 blocked requests: ${servers.map((s) => s.calls).join(', ')}`);

  const scenario = { id: 'blocked', title: 'a blocked key', request: { method: 'GET', path, headers: blocked } };
  for (const server of servers) await load(server.port, scenario, 2); // warm-up
  const slots = Object.fromEntries(servers.map((server) => [server.name, []]));
  const loadBefore = loadNow();
  const cycleLoad = [];
  for (let cycle = 0; cycle < cycles; cycle++) {
    cycleLoad.push(loadNow());
    const order = cycle % 2 === 0 ? servers : [...servers].reverse();
    for (const server of order) {
      const cpuBefore = cpuSeconds(server.process.pid);
      const result = await load(server.port, scenario, slot);
      const cpu = cpuSeconds(server.process.pid) - cpuBefore;
      // every answer must be the 429 (wrk and autocannon count them as non-2xx); a socket error is a failure
      if (result.errors !== result.requests)
        throw new Error(`${server.name}: ${result.requests} requests, ${result.errors} non-2xx or errors`);
      slots[server.name].push({ rps: result.rps, cpuUs: (cpu * 1e6) / result.requests });
    }
  }
  const [on, off] = servers.map((server) => slots[server.name]);
  const median = (values) => quartiles(values).median;
  console.log(
    `block cache, a blocked key on Redis (route (b) behind rateLimit({ max: 1, blockDuration }) + RedisStore), ${await loadGeneratorName()}, ${cycles} cycles of ${slot} s slots; load average ${loadBefore} → ${loadNow()} (${Math.min(...cycleLoad)}–${Math.max(...cycleLoad)} in cycles)`,
  );
  console.log(`script calls for 50 requests of the blocked key: cache on ${servers[0].calls}, cache off ${servers[1].calls}`);
  for (const [name, list] of Object.entries(slots)) {
    console.log(
      `  ${name.padEnd(10)} median ${Math.round(median(list.map((s) => s.rps)))} req/s, ${median(list.map((s) => s.cpuUs)).toFixed(1)} µs CPU/req`,
    );
  }
  const byRps = quartiles(on.map((s, i) => s.rps / off[i].rps));
  const byCpu = quartiles(on.map((s, i) => off[i].cpuUs / s.cpuUs));
  console.log(
    `  cache on / off, per cycle: req/s ×${byRps.median.toFixed(2)} (IQR ${byRps.q1.toFixed(2)}–${byRps.q3.toFixed(2)}), CPU per request ×${byCpu.median.toFixed(2)} less (IQR ${byCpu.q1.toFixed(2)}–${byCpu.q3.toFixed(2)})`,
  );
} finally {
  for (const server of servers) await server.process.stop();
  admin.disconnect();
  redisChild.kill('SIGTERM');
  await once(redisChild, 'exit');
}
