// Fastify: route (b) with its JSON schemas (as in the HTTP benchmark) behind @fastify/rate-limit
// with its Redis store (ioredis). Usage: node fastify-redis.mjs <port>
import Fastify from 'fastify';
import { Redis } from 'ioredis';

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
app.get(
  '/users/:id',
  {
    schema: {
      params: { type: 'object', properties: { id: { type: 'number' } }, required: ['id'] },
      querystring: { type: 'object', properties: { active: { type: 'boolean' }, tags: { type: 'array', items: { type: 'string' } } } },
      headers: { type: 'object', properties: { 'x-request-id': { type: 'string' } } },
      response: {
        200: {
          type: 'object',
          properties: {
            id: { type: 'number' },
            active: { type: 'boolean' },
            tags: { type: 'array', items: { type: 'string' } },
            requestId: { type: 'string' },
          },
        },
      },
    },
  },
  async (request) => ({
    id: request.params.id,
    active: request.query.active ?? false,
    tags: request.query.tags ?? [],
    requestId: request.headers['x-request-id'],
  }),
);

await app.listen({ port, host: '127.0.0.1' });
process.once('SIGTERM', async () => {
  await app.close();
  redis.disconnect();
});
