// The routes every Hono server of the benchmarks serves, on Node (hono.mjs) and on Bun and Deno
// (bench/runtimes/servers/hono-app.mjs): routes (b) and (c) and the mixed traffic's (m), written in
// Hono's idiom (conversion in the handler, the body checked with hono/validator). One definition,
// so that each runtime times the same routes; only the client address is the runtime's.
import { validator } from 'hono/validator';
import { rateLimiter } from 'hono-rate-limiter';
import { checkNewUser } from '../../build/kiln/http/new-user.js';
import { reportCsv } from '../mixed-traffic.mjs';

/** hono-rate-limiter keyed by X-Forwarded-For or, without it, `remoteAddress(c)` (the socket's address as the runtime's adapter tells it). */
export function honoLimiter(remoteAddress) {
  return rateLimiter({
    windowMs: 60_000,
    limit: 1_000_000_000,
    standardHeaders: 'draft-6',
    keyGenerator: (c) => c.req.header('x-forwarded-for') ?? remoteAddress(c),
  });
}

/** Adds the routes to `app`; `limiter` guards the mixed traffic's GET /limited. */
export function addHonoRoutes(app, limiter) {
  app.get('/hello', (c) => c.json({ hello: 'world' }));
  app.get('/users/:id', (c) => {
    const active = c.req.query('active');
    return c.json({
      id: Number(c.req.param('id')),
      active: active === 'true' || active === '1',
      tags: c.req.queries('tags') ?? [],
      requestId: c.req.header('x-request-id'),
    });
  });
  app.post(
    '/users',
    validator('json', (value, c) => {
      const problem = checkNewUser(value);
      if (problem !== undefined) return c.json({ error: problem }, 400);
      return value;
    }),
    (c) => {
      const { name, email, age } = c.req.valid('json');
      return c.json({ id: 1, name, email, age });
    },
  );
  app.get('/items/:id', (c) => c.json({ id: Number(c.req.param('id')) }));
  app.get('/search', (c) => c.json({ tags: c.req.queries('tags') ?? [], limit: Number(c.req.query('limit')) }));
  app.get('/whoami', (c) => c.json({ user: c.req.header('x-user') }));
  app.delete('/users/:id', (c) => c.body(null, 204));
  app.get('/report.csv', (c) => c.body(reportCsv, 200, { 'content-type': 'text/csv; charset=utf-8' }));
  app.get('/limited', limiter, (c) => c.json({ limited: true }));
}
