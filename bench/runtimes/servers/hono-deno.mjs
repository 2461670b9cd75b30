// Hono on Deno: Deno.serve on app.fetch. Usage: deno run -A hono-deno.mjs <port>
import { getConnInfo } from 'hono/deno';
import { honoApp } from './hono-app.mjs';

const app = honoApp((c) => getConnInfo(c).remote.address);
Deno.serve({ port: Number(Deno.args[0]), hostname: '127.0.0.1', onListen() {} }, app.fetch);
