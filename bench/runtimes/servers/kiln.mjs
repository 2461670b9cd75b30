// Kiln on any runtime: the bench's Kiln app (bench/http/servers/kiln) and app.listen(), which is
// node:http on Node, Bun.serve on Bun and Deno.serve on Deno. Usage: <runtime> kiln.mjs <port>
import { createKilnApp } from '../../build/kiln/http/servers/kiln/app.js';

const port = Number(globalThis.Deno?.args[0] ?? process.argv[2]);
const app = await createKilnApp();
await app.listen(port, '127.0.0.1');
