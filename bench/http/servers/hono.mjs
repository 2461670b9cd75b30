// Hono on @hono/node-server: the routes every Hono server serves (hono-routes.mjs), and the ones
// only the Node benchmark sends: (e), the list, and /report-web.csv (the mixed traffic with the
// global Response, which Hono answers as /report.csv). Scenario (d) with hono-rate-limiter.
// Usage: node hono.mjs <port> [--rate-limit]
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import { userList } from '../../build/kiln/http/user-list.js';
import { reportCsv } from '../mixed-traffic.mjs';
import { addHonoRoutes, honoLimiter } from './hono-routes.mjs';

const port = Number(process.argv[2]);
const app = new Hono();
const limiter = () => honoLimiter((c) => c.env.incoming.socket.remoteAddress);
if (process.argv.includes('--rate-limit')) app.use(limiter());
addHonoRoutes(app, limiter());
app.get('/users', (c) => c.json(userList));
app.get('/report-web.csv', (c) => c.body(reportCsv, 200, { 'content-type': 'text/csv; charset=utf-8' }));

serve({ fetch: app.fetch, port, hostname: '127.0.0.1' });
