// What RedisStore costs in Redis memory: MEMORY USAGE of one key holding n counted requests (the
// sliding log holds at most `max` of them), and used_memory growth for 100,000 keys of one request
// each, extrapolated to 1,000,000. Run against a Redis you can flush:
//   REDIS_URL=redis://127.0.0.1:6379 node bench/rate-limit-redis/memory.mjs   (after npm run build)
import { Redis } from 'ioredis';
import { RedisStore } from '@kiln/rate-limit';

const client = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
await client.flushall();
const mib = (bytes) => (bytes / 1024 / 1024).toFixed(1);

console.log('| requests in the window (≤ max) | encoding | MEMORY USAGE of the key | × 1,000,000 keys |');
console.log('|---:|---|---:|---:|');
for (const n of [1, 10, 100, 128, 129, 1000]) {
  const store = new RedisStore({ client, prefix: `mem-${n}:`, timeoutMs: 10_000 });
  store.init({ windowMs: 3_600_000, max: n });
  for (let i = 0; i < n; i += 500) await Promise.all(Array.from({ length: Math.min(500, n - i) }, () => store.hit('203.0.113.7')));
  const key = store.keyFor('203.0.113.7');
  const bytes = await client.memory('USAGE', key, 'SAMPLES', 0);
  const encoding = await client.object('ENCODING', key);
  console.log(`| ${n} | ${encoding} | ${bytes} B | ${mib(bytes * 1e6)} MiB |`);
}

await client.flushall();
const used = async () => Number(/used_memory:(\d+)/.exec(await client.info('memory'))[1]);
const before = await used();
const store = new RedisStore({ client, prefix: 'kiln-rl:', timeoutMs: 10_000 });
store.init({ windowMs: 3_600_000, max: 100 });
const keys = 100_000;
for (let i = 0; i < keys; i += 1000) {
  await Promise.all(
    Array.from({ length: 1000 }, (_, j) => store.hit(`2001:db8:${((i + j) >> 16).toString(16)}:${((i + j) & 0xffff).toString(16)}::/56`)),
  );
}
const grown = (await used()) - before;
console.log(
  `\n${keys} keys of one request each (IPv6 /56 keys): used_memory +${mib(grown)} MiB, ${Math.round(grown / keys)} B per key → about ${mib((grown / keys) * 1e6)} MiB at 1,000,000 keys`,
);
await client.flushall();
client.disconnect();
