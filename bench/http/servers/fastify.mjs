// Fastify: typed params, query and header through its JSON schemas (Ajv coercion), the body
// validated by its schema, replies serialised by fast-json-stringify from response schemas (Fastify
// at its best); scenario (d) with @fastify/rate-limit.
// Usage: node fastify.mjs <port> [--rate-limit]
import Fastify from 'fastify';

const port = Number(process.argv[2]);
const app = Fastify({ logger: false });
if (process.argv.includes('--rate-limit')) {
  await app.register(import('@fastify/rate-limit'), { global: true, max: 1_000_000_000, timeWindow: 60_000 });
}

const user = {
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' }, email: { type: 'string' }, age: { type: 'integer' } },
};

app.get('/hello', {
  schema: { response: { 200: { type: 'object', properties: { hello: { type: 'string' } } } } },
}, async () => ({ hello: 'world' }));

app.get('/users/:id', {
  schema: {
    params: { type: 'object', properties: { id: { type: 'number' } }, required: ['id'] },
    querystring: {
      type: 'object',
      properties: { active: { type: 'boolean' }, tags: { type: 'array', items: { type: 'string' } } },
    },
    headers: { type: 'object', properties: { 'x-request-id': { type: 'string' } } },
    response: {
      200: {
        type: 'object',
        properties: { id: { type: 'number' }, active: { type: 'boolean' }, tags: { type: 'array', items: { type: 'string' } }, requestId: { type: 'string' } },
      },
    },
  },
}, async (request) => ({
  id: request.params.id,
  active: request.query.active ?? false,
  tags: request.query.tags ?? [],
  requestId: request.headers['x-request-id'],
}));

app.post('/users', {
  schema: {
    body: {
      type: 'object',
      required: ['name', 'email', 'age'],
      properties: {
        name: { type: 'string', minLength: 1 },
        email: { type: 'string', pattern: '@' },
        age: { type: 'integer', minimum: 0 },
      },
    },
    response: { 200: user },
  },
}, async (request) => {
  const { name, email, age } = request.body;
  return { id: 1, name, email, age };
});

await app.listen({ port, host: '127.0.0.1' });
