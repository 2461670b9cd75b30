// A server process for the cross-process test: one Kiln app limited by a RedisStore. Prints
// {"port":N} once listening and stops when its stdin closes.
import { Controller, Get } from '@kiln/core';
import { rateLimit, RedisStore } from '@kiln/rate-limit';
import { redisClient } from './redis.js';
import { start } from './server.js';

@Controller('/')
class Shared {
  @Get('/ping') ping() {
    return { pid: process.pid };
  }
}

const client = redisClient();
const store = new RedisStore({ client, prefix: process.env.RL_PREFIX!, failOpen: false, timeoutMs: 2000 });
const server = await start({
  controllers: [Shared],
  middlewares: [
    rateLimit({
      max: Number(process.env.RL_MAX),
      windowMs: Number(process.env.RL_WINDOW_MS),
      store,
      keyGenerator: (req) => req.headers.get('x-key') ?? 'everyone',
    }),
  ],
});
process.stdout.write(`${JSON.stringify({ port: Number(new URL(server.base).port) })}\n`);
process.stdin.resume();
process.stdin.on('end', async () => {
  await server.close();
  client.disconnect();
  process.exit(0);
});
