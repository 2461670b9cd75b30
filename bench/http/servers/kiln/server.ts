// Kiln: routes (a)–(c); with --rate-limit, every route behind a global @kiln/rate-limit.
// Usage: node server.js <port> [--rate-limit]
import { createServer, type MiddlewareLike } from 'kiln';
import { HelloController, UsersController } from './users-controller.js';

const port = Number(process.argv[2]);
const middlewares: MiddlewareLike[] = [];
if (process.argv.includes('--rate-limit')) {
  // Imported only for scenario (d), so the other scenarios run before the package exists.
  const rateLimitPackage: string = '@kiln/rate-limit';
  const { rateLimit } = await import(rateLimitPackage);
  middlewares.push(rateLimit({ max: 1_000_000_000, windowMs: 60_000 }));
}
const app = createServer({ controllers: [HelloController, UsersController], middlewares });
await app.listen(port, '127.0.0.1');
