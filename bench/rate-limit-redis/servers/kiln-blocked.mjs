// Kiln: route (b) behind a limiter on Redis with a blockDuration, for the block-cache benchmark.
// Requests with an `x-client` header are limited by it (max 1 per minute, then blocked for an
// hour); the readiness probe sends none and is skipped. BLOCK_CACHE=off asks Redis every time.
// Usage: node kiln-blocked.mjs <port>   (REDIS_URL, RL_PREFIX, BLOCK_CACHE from the environment)
import { Redis } from 'ioredis';
import { createServer } from '@kiln/core';
import { rateLimit, RedisStore } from '@kiln/rate-limit';
// The controllers of the HTTP benchmark, built by `npm run bench` with tspc + @kiln/core/transformer.
import { HelloController, UsersController } from '../../build/kiln/http/servers/kiln/users-controller.js';

const port = Number(process.argv[2]);
const client = new Redis(process.env.REDIS_URL);
const store = new RedisStore({ client, prefix: process.env.RL_PREFIX, blockCache: process.env.BLOCK_CACHE !== 'off' });
const app = createServer({
  controllers: [HelloController, UsersController],
  middlewares: [
    rateLimit({
      max: 1,
      windowMs: 60_000,
      blockDuration: 3_600_000,
      store,
      keyGenerator: (req) => req.headers.get('x-client') ?? '',
      skip: (req) => !req.headers.has('x-client'),
    }),
  ],
  strictValidation: true,
});
await app.listen(port, '127.0.0.1');
process.once('SIGTERM', async () => {
  await app.close();
  client.disconnect();
});
