// Fastify: typed params, query and header through its JSON schemas (Ajv coercion), the body
// validated by its schema, replies serialised by fast-json-stringify from response schemas (Fastify
// at its best); scenario (d) with @fastify/rate-limit.
// Usage: node fastify.mjs <port> [--rate-limit] [--jwt <secret>]
import Fastify from 'fastify';
import { userList, userListSchema } from '../../build/kiln/http/user-list.js';
import { reportCsv } from '../mixed-traffic.mjs';
import { addUserByIdRoute } from './fastify-user-route.mjs';

const port = Number(process.argv[2]);
const app = Fastify({ logger: false });
const rateLimited = process.argv.includes('--rate-limit');
// Global for scenario (d); otherwise only the mixed traffic's GET /limited (its route config) is limited.
await app.register(import('@fastify/rate-limit'), { global: rateLimited, max: 1_000_000_000, timeWindow: 60_000 });
// --jwt <secret>: every route behind @fastify/jwt (HS256), as bench/http/jwt-guard.bench.mjs compares.
const jwt = process.argv.indexOf('--jwt');
if (jwt !== -1) {
  await app.register(import('@fastify/jwt'), { secret: process.argv[jwt + 1], verify: { algorithms: ['HS256'] } });
  app.addHook('onRequest', async (request, reply) => {
    try {
      await request.jwtVerify();
    } catch {
      return reply.code(401).send({ error: 'Unauthorized', message: 'A valid bearer token is required' });
    }
  });
}

const user = {
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' }, email: { type: 'string' }, age: { type: 'integer' } },
};

app.get(
  '/hello',
  {
    schema: { response: { 200: { type: 'object', properties: { hello: { type: 'string' } } } } },
  },
  async () => ({ hello: 'world' }),
);

addUserByIdRoute(app);

app.post(
  '/users',
  {
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
  },
  async (request) => {
    const { name, email, age } = request.body;
    return { id: 1, name, email, age };
  },
);

// (e): the list, written by fast-json-stringify from its response schema.
app.get('/users', { schema: { response: { 200: userListSchema } } }, async () => userList);

// The mixed traffic's other routes (mixed-traffic.mjs).
app.get(
  '/items/:id',
  {
    schema: {
      params: { type: 'object', properties: { id: { type: 'number' } }, required: ['id'] },
      response: { 200: { type: 'object', properties: { id: { type: 'number' } } } },
    },
  },
  async (request) => ({ id: request.params.id }),
);

app.get(
  '/search',
  {
    schema: {
      querystring: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } }, limit: { type: 'number' } } },
      response: { 200: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } }, limit: { type: 'number' } } } },
    },
  },
  async (request) => ({ tags: request.query.tags ?? [], limit: request.query.limit }),
);

app.get(
  '/whoami',
  {
    schema: {
      headers: { type: 'object', properties: { 'x-user': { type: 'string' } } },
      response: { 200: { type: 'object', properties: { user: { type: 'string' } } } },
    },
  },
  async (request) => ({ user: request.headers['x-user'] }),
);

app.delete(
  '/users/:id',
  {
    schema: { params: { type: 'object', properties: { id: { type: 'number' } }, required: ['id'] } },
  },
  async (_request, reply) => {
    reply.code(204);
  },
);

for (const path of ['/report.csv', '/report-web.csv'])
  app.get(path, async (_request, reply) => {
    reply.type('text/csv; charset=utf-8');
    return reportCsv;
  });

app.get(
  '/limited',
  {
    config: { rateLimit: { max: 1_000_000_000, timeWindow: 60_000 } },
    schema: { response: { 200: { type: 'object', properties: { limited: { type: 'boolean' } } } } },
  },
  async () => ({ limited: true }),
);

await app.listen({ port, host: '127.0.0.1' });
