// The servers under test, in the order of the results table. `rateLimiter` names the limiter
// used for scenario (d); null where the framework has no usual one (the scenario is skipped).
// `scenarios` lists what a server serves when it is not every scenario (srvx: the first three routes).
import { fileURLToPath } from 'node:url';

const bench = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));

export const servers = [
  { name: 'node:http (raw)', script: bench('http/servers/raw-node.mjs'), rateLimiter: 'hand-written fixed window' },
  { name: 'Kiln', script: bench('build/kiln/http/servers/kiln/server.js'), rateLimiter: '@kiln/rate-limit' },
  // The cost of requestLogger() (pino to a file) on route (b): compare its (b) with Kiln's, round by round.
  {
    name: 'Kiln + requestLogger',
    script: bench('build/kiln/http/servers/kiln/logged-server.js'),
    rateLimiter: null,
    scenarios: ['b'],
  },
  { name: 'Fastify', script: bench('http/servers/fastify.mjs'), rateLimiter: '@fastify/rate-limit' },
  { name: 'Hono', script: bench('http/servers/hono.mjs'), rateLimiter: 'hono-rate-limiter' },
  { name: 'srvx', script: bench('http/servers/srvx.mjs'), rateLimiter: null, scenarios: ['a', 'b', 'c'] },
  {
    name: 'Express + routing-controllers',
    script: bench('build/legacy/http/servers/routing-controllers/server.js'),
    rateLimiter: 'express-rate-limit',
  },
  { name: 'NestJS (express)', script: bench('build/legacy/http/servers/nestjs/server.js'), rateLimiter: '@nestjs/throttler' },
];

export const baseline = servers[0].name;
