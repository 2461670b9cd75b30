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
import { createServer as netServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { RedisStore } from '@kiln/rate-limit';
import { load, loadGeneratorName } from '../http/load-generator.mjs';
import { scenarios } from '../http/scenarios.mjs';
import { loadCore, startServer } from '../http/server-process.mjs';

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

function freePort() {
  return new Promise((resolve) => {
    const server = netServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

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
          const result = await load(port, route, seconds);
          const calls = commandStats(await redis.client.info('commandstats'));
          delete calls.info; // our own INFO
          const total = Object.values(calls).reduce((a, b) => a + b, 0);
          const scripts = Object.entries(calls)
            .filter(([name]) => scriptCommands.has(name))
            .reduce((a, [, n]) => a + n, 0);
          const run = { ...result, commandsPerRequest: total / result.requests, scriptCallsPerRequest: scripts / result.requests, calls };
          run.round = round;
          runs[server.id].push(run);
          console.log(
            `  round ${round + 1} ${server.name}: ${Math.round(result.rps)} req/s, p99 ${result.p99Ms} ms, ${run.scriptCallsPerRequest.toFixed(2)} script calls and ${run.commandsPerRequest.toFixed(2)} Redis commands per request, ${result.errors} errors`,
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
      scriptCallsPerRequest: median(list.map((r) => r.scriptCallsPerRequest)),
      commandsPerRequest: median(list.map((r) => r.commandsPerRequest)),
      commandsOfLastRun: perRequest,
      errors: list.reduce((a, r) => a + r.errors, 0),
      runs: list.map((r) => Math.round(r.rps)),
    };
  });
  // medians of per-round ratios (each round ran every server once, back to back)
  const roundRatio = (a, b) => median(runs[a].map((run) => run.rps / runs[b].find((other) => other.round === run.round).rps));
  for (const s of summary) {
    s.kilnRatio = roundRatio('kiln', s.id);
    s.counterRatio = roundRatio('kiln-counter', s.id);
  }
  const result = {
    scenario: '(f) route (b) behind a global rate limiter on Redis',
    limit,
    rounds,
    seconds,
    loadGenerator: await loadGeneratorName(),
    servers: summary,
    memory,
  };
  await writeFile(here('../results/rate-limit-redis.md'), markdown(result));
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
  await client.flushall();
  const used = async () => Number(/used_memory:(\d+)/.exec(await client.info('memory'))[1]);
  const before = await used();
  const store = new RedisStore({ client, prefix: 'kiln-rl:', timeoutMs: 10_000 });
  store.init({ windowMs: 3_600_000, max: 1_000_000, algorithm: 'sliding-window-counter' });
  const keys = 100_000;
  for (let i = 0; i < keys; i += 1000)
    await Promise.all(Array.from({ length: 1000 }, (_, j) => store.hit(`198.51.${(i + j) >> 8}.${(i + j) & 255}:${i + j}`)));
  const perKey = ((await used()) - before) / keys;
  await client.flushall();
  return { rows, counterUsedMemoryPerKey: Math.round(perKey), keys };
}

function markdown(result) {
  const lines = [
    `# ${result.scenario}`,
    '',
    `max ${result.limit.max} per ${result.limit.windowMs} ms (every request counted, none refused), one redis-server per run of \`npm run bench rate-limit-redis\`, flushed before each server; ${result.loadGenerator}; median of ${result.rounds} rounds of ${result.seconds} s; order rotated each round.`,
    'The machine was shared with other work while this ran: compare the ratios (same run), not the absolute figures.',
    '',
    '| server | req/s | Kiln (log) ×faster | Kiln (counter) ×faster | p99 (ms) | Redis round trips (script calls) / request | Redis commands / request (inside scripts included) | runs (req/s) |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    ...result.servers.map(
      (s) =>
        `| ${s.name} | ${Math.round(s.rps)} | ${s.kilnRatio.toFixed(2)} | ${s.counterRatio.toFixed(2)} | ${s.p99Ms} | ${s.scriptCallsPerRequest.toFixed(2)} | ${s.commandsPerRequest.toFixed(2)} | ${s.runs.join(', ')} |`,
    ),
    '',
    'The ×faster columns are medians of per-round ratios (each round runs every server once, back to back).',
    '',
    'Commands per request in the last run, by command:',
    '',
    ...result.servers.map(
      (s) =>
        `- ${s.name}: ${Object.entries(s.commandsOfLastRun)
          .map(([name, n]) => `${name} ${n}`)
          .join(', ')}`,
    ),
    '',
    '## Redis memory per key',
    '',
    `\`MEMORY USAGE <key> SAMPLES 0\` of one Kiln key (\`${result.memory.rows[0].key}\`) after ${result.memory.rows[0].requests} counted requests:`,
    '',
    '| algorithm | max | encoding | MEMORY USAGE |',
    '|---|---:|---|---:|',
    ...result.memory.rows.map((r) => `| ${r.algorithm} | ${r.max.toLocaleString('en')} | ${r.encoding} | ${r.bytes} B |`),
    '',
    `With Redis's own per-key overhead: ${result.memory.keys.toLocaleString('en')} counter keys of one request each grew \`used_memory\` by ${result.memory.counterUsedMemoryPerKey} B per key.`,
    '',
  ];
  return lines.join('\n');
}
