// Kiln with requestLogger() (pino writing one line per request to a file in the temp folder): the
// cost of request logging on route (b), next to the plain Kiln server.
// Usage: node logged-server.js <port> [--sink file|null|build|noop]
// `--sink null` writes pino's lines to /dev/null (no file system), `--sink build` gives pino a
// destination that drops each line it is handed (pino building the line, without sonic-boom or a
// write), `--sink noop` gives requestLogger() a logger that drops every line (Kiln's own share).
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKilnApp } from './app.js';

const port = Number(process.argv[2]);
const sinkAt = process.argv.indexOf('--sink');
const sink = sinkAt === -1 ? 'file' : process.argv[sinkAt + 1];
const logFile = sink === 'null' ? '/dev/null' : join(tmpdir(), `kiln-bench-requests-${process.pid}.log`);
const app = await createKilnApp({ logFile, dropLines: sink === 'noop', buildOnly: sink === 'build' });
await app.listen(port, '127.0.0.1');
