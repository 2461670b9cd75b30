// Kiln with requestLogger() (pino writing one line per request to a file in the temp folder): the
// cost of request logging on route (b), next to the plain Kiln server.
// Usage: node logged-server.js <port>
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKilnApp } from './app.js';

const port = Number(process.argv[2]);
const logFile = join(tmpdir(), `kiln-bench-requests-${process.pid}.log`);
const app = await createKilnApp({ logFile });
await app.listen(port, '127.0.0.1');
