// Route (b) as Fastify serves it in every benchmark that times it (fastify.mjs here, and
// bench/rate-limit-redis/servers/fastify-redis.mjs behind a Redis limiter): params, query and
// header typed by its JSON schemas (Ajv coercion), the reply written by fast-json-stringify from
// the response schema. One definition, so that the limiter benchmark times the route the HTTP one does.

/** Adds GET /users/:id, route (b), to the Fastify `app`. */
export function addUserByIdRoute(app) {
  app.get(
    '/users/:id',
    {
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
}
