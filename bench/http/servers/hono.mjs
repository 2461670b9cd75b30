// Hono on @hono/node-server: conversion written in the handler (Hono's idiom), the body checked
// with hono/validator; scenario (d) with hono-rate-limiter.
// Usage: node hono.mjs <port> [--rate-limit]
import { Hono } from 'hono';
import { validator } from 'hono/validator';
import { serve } from '@hono/node-server';
import { rateLimiter } from 'hono-rate-limiter';
import { checkNewUser } from '../../build/kiln/http/new-user.js';
import { userList } from '../../build/kiln/http/user-list.js';
import { reportCsv } from '../mixed-traffic.mjs';

const port = Number(process.argv[2]);
const app = new Hono();
const limiter = () =>
  rateLimiter({
    windowMs: 60_000,
    limit: 1_000_000_000,
    standardHeaders: 'draft-6',
    keyGenerator: (c) => c.req.header('x-forwarded-for') ?? c.env.incoming.socket.remoteAddress,
  });
if (process.argv.includes('--rate-limit')) app.use(limiter());

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

// (e) and the mixed traffic's other routes (mixed-traffic.mjs).
app.get('/users', (c) => c.json(userList));
app.get('/items/:id', (c) => c.json({ id: Number(c.req.param('id')) }));
app.get('/search', (c) => c.json({ tags: c.req.queries('tags') ?? [], limit: Number(c.req.query('limit')) }));
app.get('/whoami', (c) => c.json({ user: c.req.header('x-user') }));
app.delete('/users/:id', (c) => c.body(null, 204));
for (const path of ['/report.csv', '/report-web.csv'])
  app.get(path, (c) => c.body(reportCsv, 200, { 'content-type': 'text/csv; charset=utf-8' }));
app.get('/limited', limiter(), (c) => c.json({ limited: true }));

serve({ fetch: app.fetch, port, hostname: '127.0.0.1' });
