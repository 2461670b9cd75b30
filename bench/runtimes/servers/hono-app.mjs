// Hono's app for Bun and Deno, routes (b) and the mixed traffic (m): the routes Hono serves on Node
// too (bench/http/servers/hono-routes.mjs); only the client address for the limiter's key is the
// runtime's.
import { Hono } from 'hono';
import { addHonoRoutes, honoLimiter } from '../../http/servers/hono-routes.mjs';

/** `remoteAddress(c)`: the socket's address, as each runtime's adapter tells it. */
export function honoApp(remoteAddress) {
  const app = new Hono();
  addHonoRoutes(app, honoLimiter(remoteAddress));
  return app;
}
