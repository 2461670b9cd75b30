// Scenario (f): route (b) behind a global rate limiter backed by a real redis-server, the same
// Redis and the same limit for each: Kiln + RedisStore (the sliding log, and the
// sliding-window counter), Fastify + @fastify/rate-limit (ioredis), Express + express-rate-limit +
// rate-limit-redis (ioredis). Reports req/s, p99 and the Redis commands per request (INFO
// commandstats, reset before each timed run: script calls = round trips, and every command Redis
// ran, those inside the scripts included), then the Redis memory of one key of each Kiln algorithm
// (MEMORY USAGE) at max 1,000 and 1,000,000.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { RedisStore } from '@kiln/rate-limit';
import { freePort } from '../free-port.mjs';
import { load, loadGeneratorName } from '../http/load-generator.mjs';
import { scenarios } from '../http/scenarios.mjs';
import { loadCore, startServer } from '../http/server-process.mjs';
import { cpuSeconds } from '../http/process-cpu.mjs';
import { rateLimitRedisMarkdown } from '../report/rate-limit-redis-markdown.mjs';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const route = scenarios.find((s) => s.id === 'b');
const limit = { max: 1_000_000_000, windowMs: 60_000 }; // as in scenario (d): every request passes, every request is counted
const servers = [
  { id: 'kiln', name: 'Kiln + RedisStore (sliding log)', script: here('servers/kiln-redis.mjs'), env: { RL_ALGORITHM: 'sliding-log' } },
  {
    id: 'kiln-counter',
    name: 'Kiln + RedisStore (sliding-window-counter)',
    script: here('servers/kiln-redis.mjs'),
    env: { RL_ALGORITHM: 'sliding-window-counter' },
  },
  { id: 'fastify', name: 'Fastify + @fastify/rate-limit (ioredis)', script: here('servers/fastify-redis.mjs') },
  { id: 'express', name: 'Express + express-rate-limit + rate-limit-redis', script: here('servers/express-redis.mjs') },
];
const scriptCommands = new Set(['evalsha', 'eval', 'evalsha_ro', 'eval_ro', 'fcall', 'fcall_ro']);

/** A redis-server of its own on a free loopback port, pinned to the load generator's core (the server core stays the app's). */
async function startRedis() {
  const port = await freePort();
  const child = spawn(
    'taskset',
    ['-c', String(loadCore), 'redis-server', '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const client = new Redis(port, '127.0.0.1', { retryStrategy: () => 50 });
  // redis-server takes a moment to listen: refused connections until then are retried, not reported
  const ignoreUntilReady = () => {};
  client.on('error', ignoreUntilReady);
  await client.ping();
  client.off('error', ignoreUntilReady);
  return {
    url: `redis://127.0.0.1:${port}`,
    client,
    async stop() {
      client.disconnect();
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

function commandStats(info) {
  const calls = {};
  for (const [, name, count] of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) calls[name] = Number(count);
  return calls;
}

async function checkServer(server, port) {
  const response = await fetch(`http://127.0.0.1:${port}${route.request.path}`, { headers: route.request.headers });
  const body = await response.json();
  if (response.status !== 200 || JSON.stringify(body) !== JSON.stringify(route.expected))
    throw new Error(`${server.name} answered ${response.status} ${JSON.stringify(body)}`);
  const remaining = response.headers.get('ratelimit-remaining') ?? response.headers.get('x-ratelimit-remaining');
  if (remaining === null) throw new Error(`${server.name} sent no rate-limit header: its limiter is not in the path`);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function runRateLimitRedis({ rounds = 3, seconds = 5, warmupSeconds = 2 } = {}) {
  const redis = await startRedis();
  Object.assign(process.env, { REDIS_URL: redis.url, RL_MAX: String(limit.max), RL_WINDOW_MS: String(limit.windowMs) });
  const runs = Object.fromEntries(servers.map((s) => [s.id, []]));
  let memory;
  try {
    for (let round = 0; round < rounds; round++) {
      // rotate the order each round so no server always runs first (or last) on the loaded machine
      const order = servers.map((_, i) => servers[(i + round) % servers.length]);
      for (const server of order) {
        await redis.client.flushall();
        const port = await freePort();
        Object.assign(process.env, server.env ?? {});
        const started = await startServer(server, port);
        try {
          await checkServer(server, port);
          await load(port, route, warmupSeconds);
          await redis.client.config('RESETSTAT');
          const cpuBefore = cpuSeconds(started.pid);
          const result = await load(port, route, seconds);
          const cpuUsPerRequest = ((cpuSeconds(started.pid) - cpuBefore) * 1e6) / result.requests;
          const calls = commandStats(await redis.client.info('commandstats'));
          delete calls.info; // our own INFO
          const total = Object.values(calls).reduce((a, b) => a + b, 0);
          const scripts = Object.entries(calls)
            .filter(([name]) => scriptCommands.has(name))
            .reduce((a, [, n]) => a + n, 0);
          const run = {
            ...result,
            cpuUsPerRequest,
            commandsPerRequest: total / result.requests,
            scriptCallsPerRequest: scripts / result.requests,
            calls,
          };
          run.round = round;
          runs[server.id].push(run);
          console.log(
            `  round ${round + 1} ${server.name}: ${Math.round(result.rps)} req/s, p99 ${result.p99Ms} ms, ${cpuUsPerRequest.toFixed(1)} µs CPU/req, ${run.scriptCallsPerRequest.toFixed(2)} script calls and ${run.commandsPerRequest.toFixed(2)} Redis commands per request, ${result.errors} errors`,
          );
        } finally {
          await started.stop();
        }
      }
    }
    memory = await measureMemory(redis.client);
  } finally {
    await redis.stop();
  }
  const summary = servers.map((server) => {
    const list = runs[server.id];
    const last = list[list.length - 1];
    const perRequest = Object.fromEntries(Object.entries(last.calls).map(([name, n]) => [name, Number((n / last.requests).toFixed(2))]));
    return {
      id: server.id,
      name: server.name,
      rps: median(list.map((r) => r.rps)),
      p99Ms: median(list.map((r) => r.p99Ms)),
      cpuUsPerRequest: median(list.map((r) => r.cpuUsPerRequest)),
      scriptCallsPerRequest: median(list.map((r) => r.scriptCallsPerRequest)),
      commandsPerRequest: median(list.map((r) => r.commandsPerRequest)),
      commandsOfLastRun: perRequest,
      errors: list.reduce((a, r) => a + r.errors, 0),
      runs: list.map((r) => Math.round(r.rps)),
    };
  });
  // medians of per-round ratios (each round ran every server once, back to back)
  const roundRatio = (a, b) => median(runs[a].map((run) => run.rps / runs[b].find((other) => other.round === run.round).rps));
  // by CPU per request: the other's CPU over Kiln's (above 1 Kiln costs less), per round, then the median
  const cpuRatio = (a, b) =>
    median(runs[a].map((run) => runs[b].find((other) => other.round === run.round).cpuUsPerRequest / run.cpuUsPerRequest));
  for (const s of summary) {
    s.kilnRatio = roundRatio('kiln', s.id);
    s.counterRatio = roundRatio('kiln-counter', s.id);
    s.kilnCpuRatio = cpuRatio('kiln', s.id);
    s.counterCpuRatio = cpuRatio('kiln-counter', s.id);
    s.counterRoundRatios = runs['kiln-counter'].map((run) => run.rps / runs[s.id].find((other) => other.round === run.round).rps);
  }
  const result = {
    scenario: '(f) route (b) behind a global rate limiter on Redis',
    limit,
    rounds,
    seconds,
    warmupSeconds,
    loadGenerator: await loadGeneratorName(),
    servers: summary,
    memory,
  };
  await writeFile(here('../results/rate-limit-redis.md'), `${rateLimitRedisMarkdown(result, '#')}\n`);
  console.log(`\nWrote bench/results/rate-limit-redis.md`);
  return result;
}

/**
 * MEMORY USAGE of one key of each Kiln algorithm after `requests` counted requests, at max 1,000
 * and 1,000,000, and used_memory growth per key for 100,000 keys of the counter.
 */
async function measureMemory(client) {
  const rows = [];
  for (const algorithm of ['sliding-window-counter', 'sliding-log']) {
    for (const max of [1000, 1_000_000]) {
      await client.flushall();
      const store = new RedisStore({ client, prefix: 'bench-memory:', timeoutMs: 10_000 });
      store.init({ windowMs: 3_600_000, max, algorithm });
      const requests = 1000; // the log at max 1,000 is then full; the counter holds the same two numbers whatever it counted
      for (let i = 0; i < requests; i += 250) await Promise.all(Array.from({ length: 250 }, () => store.hit('203.0.113.7')));
      const key = store.keyFor('203.0.113.7');
      rows.push({
        algorithm,
        max,
        requests,
        key,
        encoding: await client.object('ENCODING', key),
        bytes: Number(await client.memory('USAGE', key, 'SAMPLES', 0)),
      });
    }
  }
  // used_memory over many keys, Redis's own per-key overhead included, at each max
  const used = async () => Number(/used_memory:(\d+)/.exec(await client.info('memory'))[1]);
  const keys = 100_000;
  const usedPerKey = [];
  for (const max of [1000, 1_000_000]) {
    await client.flushall();
    const before = await used();
    const store = new RedisStore({ client, prefix: 'kiln-rl:', timeoutMs: 10_000 });
    store.init({ windowMs: 3_600_000, max, algorithm: 'sliding-window-counter' });
    for (let i = 0; i < keys; i += 1000)
      await Promise.all(Array.from({ length: 1000 }, (_, j) => store.hit(`198.51.${(i + j) >> 8}.${(i + j) & 255}:${i + j}`)));
    usedPerKey.push({ max, bytes: Math.round(((await used()) - before) / keys) });
  }
  await client.flushall();
  return { rows, usedPerKey, keys, sampleKey: 'kiln-rl:{198.51.0.0:0}' };
}
