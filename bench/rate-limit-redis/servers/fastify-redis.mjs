// Fastify: route (b) with its JSON schemas (the HTTP benchmark's: http/servers/fastify-user-route.mjs)
// behind @fastify/rate-limit with its Redis store (ioredis). Usage: node fastify-redis.mjs <port>
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { addUserByIdRoute } from '../../http/servers/fastify-user-route.mjs';

const port = Number(process.argv[2]);
const redis = new Redis(process.env.REDIS_URL, { connectTimeout: 500, maxRetriesPerRequest: 1 });
const app = Fastify({ logger: false });
await app.register(import('@fastify/rate-limit'), {
  global: true,
  max: Number(process.env.RL_MAX),
  timeWindow: Number(process.env.RL_WINDOW_MS),
  redis,
  nameSpace: 'bench-fastify:',
});

app.get('/hello', async () => ({ hello: 'world' }));
addUserByIdRoute(app);

await app.listen({ port, host: '127.0.0.1' });
process.once('SIGTERM', async () => {
  await app.close();
  redis.disconnect();
});
