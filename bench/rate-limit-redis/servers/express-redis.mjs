// Express 5: route (b) converted by hand behind express-rate-limit with rate-limit-redis (ioredis).
// Usage: node express-redis.mjs <port>
import express from 'express';
import { rateLimit } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import { Redis } from 'ioredis';

const port = Number(process.argv[2]);
const redis = new Redis(process.env.REDIS_URL);
const app = express();
app.set('query parser', 'extended');
app.use(
  rateLimit({
    windowMs: Number(process.env.RL_WINDOW_MS),
    limit: Number(process.env.RL_MAX),
    standardHeaders: 'draft-6',
    legacyHeaders: false,
    store: new RedisStore({ sendCommand: (command, ...args) => redis.call(command, ...args), prefix: 'bench-express:' }),
  }),
);

app.get('/hello', (_req, res) => {
  res.json({ hello: 'world' });
});
app.get('/users/:id', (req, res) => {
  const tags = req.query.tags;
  res.json({
    id: Number(req.params.id),
    active: req.query.active === 'true' || req.query.active === '1',
    tags: Array.isArray(tags) ? tags : tags === undefined ? [] : [tags],
    requestId: req.get('x-request-id'),
  });
});

const server = app.listen(port, '127.0.0.1');
process.once('SIGTERM', () => server.close(() => redis.disconnect()));
