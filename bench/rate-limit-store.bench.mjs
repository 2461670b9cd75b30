#!/usr/bin/env node
// `node bench/rate-limit-store.bench.mjs` (after `npm run build` and `npm ci --prefix bench`)
// The in-memory counter of each rate limiter, called as its middleware calls it: Kiln's
// MemoryStore.increment (synchronous sliding log), rate-limiter-flexible's RateLimiterMemory
// .consume (a promise; rejects when over the limit) and express-rate-limit's MemoryStore
// .increment (a promise; fixed window). Same limit for all: 100 requests per 60 s.
// Two workloads: clients under the limit (50 requests each, then a new client) and one client
// far over it. Each timed call is a batch of 1,000 calls; ops/s = 1,000 / mean batch time;
// `--rounds N` (default 3) repeats everything in fresh stores and reports each one's median.
import { bench, group, run, do_not_optimize } from 'mitata';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { MemoryStore as ExpressMemoryStore } from 'express-rate-limit';
import { MemoryStore as KilnMemoryStore } from '@kiln/rate-limit';

const max = 100;
const windowMs = 60_000;
const batch = 1000;
const requestsPerClient = 50;
const clients = Array.from({ length: 400_000 }, (_, i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);

function kiln() {
  const store = new KilnMemoryStore();
  store.init({ windowMs, max });
  return store;
}
function flexible() {
  return new RateLimiterMemory({ points: max, duration: windowMs / 1000 });
}
function express() {
  const store = new ExpressMemoryStore();
  store.init({ windowMs });
  return store;
}
const refused = () => false;

// Correctness first: each counts the same key 1, 2, 3 and knows when it is over the limit.
{
  const k = kiln();
  const f = flexible();
  const e = express();
  const counts = { kiln: [], flexible: [], express: [] };
  for (let i = 0; i < 3; i++) {
    counts.kiln.push(k.increment('check'));
    counts.flexible.push((await f.consume('check')).consumedPoints);
    counts.express.push((await e.increment('check')).totalHits);
  }
  for (const [name, list] of Object.entries(counts)) {
    if (list.join() !== '1,2,3') throw new Error(`${name} counted ${list.join()} instead of 1,2,3`);
  }
  for (let i = 3; i < max; i++) k.increment('check');
  if (k.increment('check') !== max + 1) throw new Error('kiln: request max+1 is not over the limit');
  for (let i = 3; i < max; i++) await f.consume('check');
  if (await f.consume('check').then(() => true, refused)) throw new Error('rate-limiter-flexible: request max+1 was allowed');
  e.shutdown();
}

/** A workload cursor: `next()` gives the key of the next request. */
function underLimit() {
  let request = 0;
  return () => clients[((request++ / requestsPerClient) | 0) % clients.length];
}

/** Registers both workloads with fresh stores (mitata forgets its benchmarks after each run). */
function register() {
  group(`clients under the limit (${requestsPerClient} requests each, then a new client)`, () => {
    const k = kiln();
    const f = flexible();
    const e = express();
    const kNext = underLimit();
    const fNext = underLimit();
    const eNext = underLimit();
    bench('kiln MemoryStore.increment', () => {
      for (let i = 0; i < batch; i++) do_not_optimize(k.increment(kNext()));
    });
    const kh = kiln();
    const khNext = underLimit();
    bench('kiln MemoryStore.hit (count + reset time: what rateLimit calls)', () => {
      for (let i = 0; i < batch; i++) do_not_optimize(kh.hit(khNext()));
    });
    bench('rate-limiter-flexible RateLimiterMemory.consume', async () => {
      for (let i = 0; i < batch; i++) do_not_optimize(await f.consume(fNext()).catch((r) => r));
    });
    bench('express-rate-limit MemoryStore.increment', async () => {
      for (let i = 0; i < batch; i++) do_not_optimize(await e.increment(eNext()));
    });
  });

  group('one client far over the limit', () => {
    const k = kiln();
    const f = flexible();
    const e = express();
    bench('kiln MemoryStore.increment', () => {
      for (let i = 0; i < batch; i++) do_not_optimize(k.increment('203.0.113.1'));
    });
    const kh = kiln();
    bench('kiln MemoryStore.hit (count + reset time: what rateLimit calls)', () => {
      for (let i = 0; i < batch; i++) do_not_optimize(kh.hit('203.0.113.1'));
    });
    bench('rate-limiter-flexible RateLimiterMemory.consume', async () => {
      for (let i = 0; i < batch; i++) do_not_optimize(await f.consume('203.0.113.1').catch((r) => r));
    });
    bench('express-rate-limit MemoryStore.increment', async () => {
      for (let i = 0; i < batch; i++) do_not_optimize(await e.increment('203.0.113.1'));
    });
  });
}

// Rounds in fresh stores; the median round of each benchmark is reported (this machine is shared).
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 3;
const samples = new Map();
for (let round = 0; round < rounds; round++) {
  register();
  const { benchmarks } = await run({ format: 'quiet' });
  benchmarks.forEach((b, index) => {
    const key = `${index}`;
    if (!samples.has(key)) samples.set(key, { index, name: b.alias, group: index < benchmarks.length / 2 ? 0 : 1, ops: [] });
    samples.get(key).ops.push((batch * 1e9) / b.runs[0].stats.avg);
  });
}
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const rows = [...samples.values()].map((s) => ({ group: s.group, name: s.name, opsPerSecond: median(s.ops) }));
console.log(
  `\nRate-limit store micro-benchmark (Node ${process.version}; max ${max} per ${windowMs / 1000} s; median of ${rounds} rounds)\n`,
);
console.log('| workload | store | ops/s | Kiln increment is ×faster |');
console.log('|---|---|---:|---:|');
for (const group of [0, 1]) {
  const inGroup = rows.filter((r) => r.group === group);
  const kilnOps = inGroup.find((r) => r.name === 'kiln MemoryStore.increment').opsPerSecond;
  const title = group === 0 ? 'under the limit' : 'over the limit';
  for (const row of inGroup) {
    const ratio = (kilnOps / row.opsPerSecond).toFixed(1);
    console.log(`| ${title} | ${row.name} | ${Math.round(row.opsPerSecond).toLocaleString('en-US')} | ${ratio} |`);
  }
}
process.exit(0);
