// Kiln: route (b) behind a global rateLimit backed by a RedisStore (ioredis).
// Usage: node kiln-redis.mjs <port>   (REDIS_URL, RL_MAX, RL_WINDOW_MS, RL_ALGORITHM from the environment)
import { Redis } from 'ioredis';
import { createServer } from '@kiln/core';
import { rateLimit, RedisStore } from '@kiln/rate-limit';
// The controllers of the HTTP benchmark, built by `npm run bench` with tspc + @kiln/core/transformer.
import { HelloController, UsersController } from '../../build/kiln/http/servers/kiln/users-controller.js';

const port = Number(process.argv[2]);
const client = new Redis(process.env.REDIS_URL);
const store = new RedisStore({ client, prefix: 'bench-kiln:' });
const app = createServer({
  controllers: [HelloController, UsersController],
  middlewares: [
    rateLimit({
      max: Number(process.env.RL_MAX),
      windowMs: Number(process.env.RL_WINDOW_MS),
      algorithm: process.env.RL_ALGORITHM ?? 'sliding-log',
      store,
    }),
  ],
  strictValidation: true,
});
await app.listen(port, '127.0.0.1');
process.once('SIGTERM', async () => {
  await app.close();
  client.disconnect();
});
