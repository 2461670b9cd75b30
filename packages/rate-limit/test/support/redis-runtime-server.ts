// A Kiln app whose routes are limited by RedisStores, served on 127.0.0.1 by whichever runtime
// runs this file (Node, Bun, Deno: `app.listen()` picks node:http, Bun.serve or Deno.serve):
//   <runtime> build/packages/rate-limit/test/support/redis-runtime-server.js
// REDIS_URL and RL_PREFIX from the environment; prints `kiln-redis-runtime {"port":…}` once serving.
// Date.now is frozen at a whole second so every header is exact; the Redis server keeps its own
// clock (TIME), which the limiters without a `clock` option read.
import process from 'node:process';
import { Controller, createServer, Get } from '@kiln/core';
import { rateLimit, RedisStore, type RedisClientLike } from '@kiln/rate-limit';
import { Redis } from 'ioredis';
import { createClient } from 'redis';

export const frozenNow = 1_767_225_630_000; // 30 s into a minute: the counter's window is half gone
Date.now = () => frozenNow;

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = process.env.RL_PREFIX ?? 'kiln-rl-runtime:';
const ioredis = new Redis(url, { maxRetriesPerRequest: 1 });
const nodeRedis = await createClient({ url }).connect();
await ioredis.ping(); // connected before serving
// Nothing listens on port 1: commands queue while ioredis reconnects, so every call times out.
const gone = new Redis('redis://127.0.0.1:1', { retryStrategy: () => 1000, maxRetriesPerRequest: null });
gone.on('error', () => {});

const byClient = (req: { headers: Headers }) => req.headers.get('x-client') ?? 'anonymous';
const limiter = (client: RedisClientLike, name: string, options: { algorithm?: 'sliding-window-counter'; fakeClock?: true } = {}) =>
  rateLimit({
    max: 2,
    windowMs: 60_000,
    keyGenerator: byClient,
    algorithm: options.algorithm ?? 'sliding-log',
    // a loaded machine (the test suites run two at a time) may take Redis past the default 200 ms
    store: new RedisStore({
      client,
      prefix: `${prefix}${name}:`,
      timeoutMs: 5000,
      clock: options.fakeClock ? () => Date.now() : undefined,
    }),
  });
const unreachable = (failOpen: boolean) =>
  rateLimit({
    max: 2,
    windowMs: 60_000,
    keyGenerator: byClient,
    store: new RedisStore({ client: gone, prefix: `${prefix}gone-${failOpen}:`, failOpen, timeoutMs: 100, onError: () => {} }),
  });

@Controller('/')
class Limited {
  @Get('/log/ioredis', limiter(ioredis, 'log-ioredis', { fakeClock: true }))
  logIoredis() {
    return { ok: true };
  }
  @Get('/log/redis', limiter(nodeRedis, 'log-redis', { fakeClock: true }))
  logRedis() {
    return { ok: true };
  }
  @Get('/counter/ioredis', limiter(ioredis, 'counter-ioredis', { algorithm: 'sliding-window-counter', fakeClock: true }))
  counterIoredis() {
    return { ok: true };
  }
  @Get('/counter/redis', limiter(nodeRedis, 'counter-redis', { algorithm: 'sliding-window-counter', fakeClock: true }))
  counterRedis() {
    return { ok: true };
  }
  @Get('/log/redis-clock', limiter(nodeRedis, 'log-redis-clock'))
  logRedisClock() {
    return { ok: true };
  }
  @Get('/counter/redis-clock', limiter(ioredis, 'counter-redis-clock', { algorithm: 'sliding-window-counter' }))
  counterRedisClock() {
    return { ok: true };
  }
  @Get('/gone/open', unreachable(true))
  goneOpen() {
    return { ok: true };
  }
  @Get('/gone/closed', unreachable(false))
  goneClosed() {
    return { ok: true };
  }
}

const app = createServer({ controllers: [Limited] });
const address = await app.listen(0, '127.0.0.1');
console.log(`kiln-redis-runtime ${JSON.stringify({ port: address.port })}`);
