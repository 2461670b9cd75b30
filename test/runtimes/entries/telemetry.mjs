// Node, Bun and Deno: the traced app (entries/traced-books-app.mjs) with OpenTelemetry's
// AsyncLocalStorage context manager, as an application registers it; `health.drainDelay` keeps it
// serving for a while after SIGTERM starts close(). Run unbundled: each runtime resolves
// node_modules itself.
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { tracedBooksApp } from './traced-books-app.mjs';

const app = tracedBooksApp(new AsyncLocalStorageContextManager().enable(), { health: { drainDelay: 60_000 } });
const { port } = await app.listen(0, '127.0.0.1');
process.once('SIGTERM', () => {
  console.log('kiln-telemetry closing');
  void app.close();
});
console.log(`kiln-telemetry ${JSON.stringify({ port })}`);
