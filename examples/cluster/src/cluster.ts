// Several processes, one limit: node:cluster forks WORKERS workers (default 2) that all listen on
// one port (the primary hands connections out round-robin). Each worker runs the same Kiln app
// behind a global rateLimit; STORE=redis shares one RedisStore (REDIS_URL) between them, STORE=memory
// gives each worker its own MemoryStore. Prints {"port":N,"workers":[ids]} once every worker listens.
//
//   STORE=redis REDIS_URL=redis://127.0.0.1:6379 node examples/cluster/start.mjs
import cluster from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { Controller, Get, createServer, type KilnRequest } from '@kiln/core';
import { MemoryStore, RedisStore, rateLimit, type RateLimitStore } from '@kiln/rate-limit';

const workers = Number(process.env.WORKERS ?? 2);
const port = Number(process.env.PORT ?? 3000);
const storeKind = process.env.STORE ?? 'redis';

if (cluster.isPrimary) {
  // Workers run this compiled file, not whatever script started the primary.
  cluster.setupPrimary({ exec: fileURLToPath(import.meta.url) });
  const listening = new Map<number, number>();
  for (let i = 0; i < workers; i++) cluster.fork();
  cluster.on('message', (worker, message: { listening?: number }) => {
    if (message.listening === undefined) return;
    listening.set(worker.id, message.listening);
    if (listening.size === workers) {
      process.stdout.write(
        `${JSON.stringify({ port: message.listening, workers: [...listening.keys()], ports: [...new Set(listening.values())] })}\n`,
      );
    }
  });
  const stop = () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill();
    process.exitCode = 0;
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
} else {
  const id = String(cluster.worker!.id);
  let store: RateLimitStore;
  let redis: Redis | undefined;
  if (storeKind === 'redis') {
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    // Without a listener, an outage prints an unhandled 'error' event for every retry (the store fails open meanwhile).
    redis.on('error', (error) => console.warn(`worker ${id}: redis: ${error.message}`));
    // Under a burst a Redis answer can take longer than the default 200 ms, and the store then fails open:
    // REDIS_TIMEOUT_MS lets a load test wait instead.
    store = new RedisStore({
      client: redis,
      prefix: process.env.RL_PREFIX ?? 'kiln-cluster-example:',
      timeoutMs: Number(process.env.REDIS_TIMEOUT_MS ?? 200),
    });
  } else {
    store = new MemoryStore();
  }

  @Controller('/')
  class Ping {
    @Get('/ping') ping() {
      return { worker: Number(id) };
    }
  }

  /** Names the worker on every response, 429s included, so a client can see who answered. */
  const tagWorker = (req: KilnRequest) => {
    req.setResponseHeader('x-worker', id);
  };

  const app = createServer({
    controllers: [Ping],
    middlewares: [tagWorker, rateLimit({ max: Number(process.env.MAX ?? 50), windowMs: Number(process.env.WINDOW_MS ?? 60_000), store })],
  });
  const { port: bound } = await app.listen(port, '127.0.0.1');
  process.send!({ listening: bound });
  process.once('SIGTERM', async () => {
    await app.close();
    redis?.disconnect();
    process.exit(0);
  });
}
