// srvx: a server that hands the application a web-standard Request per request (the shape the
// spec's original framework is built on). Routing and conversion written by hand on that Request.
// No usual rate limiter exists for it: scenario (d) is not run for srvx.
// Usage: node srvx.mjs <port>
import { serve } from 'srvx';
import { checkNewUser } from '../../build/kiln/http/new-user.js';

const port = Number(process.argv[2]);

serve({
  port,
  hostname: '127.0.0.1',
  silent: true,
  async fetch(request) {
    const url = new URL(request.url);
    const path = url.pathname;
    if (request.method === 'GET' && path === '/hello') return Response.json({ hello: 'world' });
    if (request.method === 'GET' && path.startsWith('/users/') && path.indexOf('/', 7) === -1) {
      const active = url.searchParams.get('active');
      return Response.json({
        id: Number(path.slice(7)),
        active: active === 'true' || active === '1',
        tags: url.searchParams.getAll('tags'),
        requestId: request.headers.get('x-request-id') ?? undefined,
      });
    }
    if (request.method === 'POST' && path === '/users') {
      let user;
      try {
        user = await request.json();
      } catch {
        return Response.json({ error: 'invalid JSON' }, { status: 400 });
      }
      const problem = checkNewUser(user);
      if (problem !== undefined) return Response.json({ error: problem }, { status: 400 });
      return Response.json({ id: 1, name: user.name, email: user.email, age: user.age });
    }
    return Response.json({ error: 'Not Found' }, { status: 404 });
  },
});
