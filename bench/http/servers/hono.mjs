// Hono on @hono/node-server: conversion written in the handler (Hono's idiom), the body checked
// with hono/validator; scenario (d) with hono-rate-limiter.
// Usage: node hono.mjs <port> [--rate-limit]
import { Hono } from 'hono';
import { validator } from 'hono/validator';
import { serve } from '@hono/node-server';
import { checkNewUser } from '../../build/kiln/http/new-user.js';

const port = Number(process.argv[2]);
const app = new Hono();
if (process.argv.includes('--rate-limit')) {
  const { rateLimiter } = await import('hono-rate-limiter');
  app.use(rateLimiter({
    windowMs: 60_000,
    limit: 1_000_000_000,
    standardHeaders: 'draft-6',
    keyGenerator: (c) => c.req.header('x-forwarded-for') ?? c.env.incoming.socket.remoteAddress,
  }));
}

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

app.post('/users', validator('json', (value, c) => {
  const problem = checkNewUser(value);
  if (problem !== undefined) return c.json({ error: problem }, 400);
  return value;
}), (c) => {
  const { name, email, age } = c.req.valid('json');
  return c.json({ id: 1, name, email, age });
});

serve({ fetch: app.fetch, port, hostname: '127.0.0.1' });
