// Elysia on Bun (its home runtime), routes (b) and the mixed traffic (m), in Elysia's idiom: the
// parameters and body typed by its own schemas (TypeBox, compiled), elysia-rate-limit on /limited.
// Usage: bun elysia-bun.mjs <port>
import { Elysia, t } from 'elysia';
import { rateLimit } from 'elysia-rate-limit';
import { reportCsv } from '../../http/mixed-traffic.mjs';

const newUser = t.Object({ name: t.String({ minLength: 1 }), email: t.String({ format: 'email' }), age: t.Integer({ minimum: 0 }) });

// Keyed like the others: X-Forwarded-For, else the socket's address.
const clientKey = (request, server) => request.headers.get('x-forwarded-for') ?? server?.requestIP(request)?.address ?? '';
const limited = new Elysia()
  .use(rateLimit({ duration: 60_000, max: 1_000_000_000, scoping: 'scoped', generator: clientKey }))
  .get('/limited', () => ({ limited: true }));
const tags = t.Optional(t.Array(t.String()));

new Elysia()
  .get('/hello', () => ({ hello: 'world' }))
  .get(
    '/users/:id',
    ({ params, query, headers }) => ({
      id: params.id,
      active: query.active === 'true' || query.active === '1',
      tags: query.tags ?? [],
      requestId: headers['x-request-id'],
    }),
    { params: t.Object({ id: t.Numeric() }), query: t.Object({ active: t.Optional(t.String()), tags }) },
  )
  .post('/users', ({ body }) => ({ id: 1, name: body.name, email: body.email, age: body.age }), { body: newUser })
  .get('/items/:id', ({ params }) => ({ id: params.id }), { params: t.Object({ id: t.Numeric() }) })
  .get('/search', ({ query }) => ({ tags: query.tags ?? [], limit: query.limit }), { query: t.Object({ tags, limit: t.Numeric() }) })
  .get('/whoami', ({ headers }) => ({ user: headers['x-user'] }))
  .delete('/users/:id', ({ set }) => {
    set.status = 204;
  })
  .get('/report.csv', () => new Response(reportCsv, { headers: { 'content-type': 'text/csv; charset=utf-8' } }))
  .use(limited)
  .listen({ port: Number(process.argv[2]), hostname: '127.0.0.1' });
