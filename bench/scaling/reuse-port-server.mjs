// One process of the reusePort measurement: the HTTP benchmark's Kiln app (routes (a)–(c)) on the
// port given, sharing it with the other processes. Usage: node reuse-port-server.mjs <port>
import { createKilnApp } from '../build/kiln/http/servers/kiln/app.js';

const app = await createKilnApp({ rateLimited: false, compressed: false });
await app.listen({ port: Number(process.argv[2]), host: '127.0.0.1', reusePort: true });
console.log('listening');
