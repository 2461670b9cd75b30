// A Worker for the DurableObjectStore suite: two limiters on the same namespace, one per algorithm,
// each with a cost (x-cost) and a block; the key is x-key. Bundled by esbuild and served by
// workerd (two services of this module: two isolates sharing the objects).
import { Controller, Get } from '@kiln/core';
import { createServer, type KilnServer } from '@kiln/core';
import { DurableObjectStore, rateLimit, type DurableObjectNamespaceLike, type RateLimitAlgorithm } from '@kiln/rate-limit';

export { RateLimiterDurableObject } from '@kiln/rate-limit';

interface Env {
  RATE_LIMITER: DurableObjectNamespaceLike;
}

function limiter(env: Env, algorithm: RateLimitAlgorithm) {
  return rateLimit({
    max: 3,
    windowMs: 60_000,
    algorithm,
    blockDuration: 120_000,
    standardHeaders: 'draft-8',
    keyGenerator: (req) => req.headers.get('x-key') ?? 'anonymous',
    cost: (req) => Number(req.headers.get('x-cost') ?? '1'),
    store: new DurableObjectStore({ namespace: env.RATE_LIMITER, prefix: `${algorithm}:` }),
  });
}

let app: KilnServer | undefined;

function build(env: Env): KilnServer {
  const log = limiter(env, 'sliding-log');
  const counter = limiter(env, 'sliding-window-counter');
  @Controller('/')
  class Api {
    @Get('/log', log) log() {
      return { ok: true };
    }
    @Get('/counter', counter) counter() {
      return { ok: true };
    }
  }
  return createServer({ controllers: [Api] });
}

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    app ??= build(env);
    return app.fetch(request);
  },
};
