// Kiln: routes (a)–(c); with --rate-limit, every route behind a global @kiln/rate-limit; with
// --compression, compression() in front; with --jwt <secret>, every route behind jwtGuard (HS256).
// Usage: node server.js <port> [--rate-limit] [--compression] [--jwt <secret>]
import { createKilnApp } from './app.js';

const port = Number(process.argv[2]);
const jwt = process.argv.indexOf('--jwt');
const app = await createKilnApp({
  rateLimited: process.argv.includes('--rate-limit'),
  compressed: process.argv.includes('--compression'),
  jwtSecret: jwt === -1 ? undefined : process.argv[jwt + 1],
});
await app.listen(port, '127.0.0.1');
