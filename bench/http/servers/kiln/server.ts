// Kiln: routes (a)–(c); with --rate-limit, every route behind a global @kiln/rate-limit; with
// --compression, compression() in front. Usage: node server.js <port> [--rate-limit] [--compression]
import { createKilnApp } from './app.js';

const port = Number(process.argv[2]);
const app = await createKilnApp({ rateLimited: process.argv.includes('--rate-limit'), compressed: process.argv.includes('--compression') });
await app.listen(port, '127.0.0.1');
