// Hono on Bun: Bun.serve on app.fetch. Usage: bun hono-bun.mjs <port>
import { getConnInfo } from 'hono/bun';
import { honoApp } from './hono-app.mjs';

const app = honoApp((c) => getConnInfo(c).remote.address);
Bun.serve({ port: Number(process.argv[2]), hostname: '127.0.0.1', fetch: app.fetch });
