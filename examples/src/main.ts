import { createApp } from './app.js';
import { readConfig } from './config.js';

// A malformed variable (PORT=eighty) stops the start with one error that names it.
const config = readConfig();
// Tracing only when a collector is configured: the OpenTelemetry SDK is not even loaded otherwise.
const tracing =
  config.OTEL_EXPORTER_OTLP_ENDPOINT === undefined
    ? undefined
    : (await import('./tracing.js')).startTracing(config.OTEL_EXPORTER_OTLP_ENDPOINT);
const app = createApp(undefined, config, tracing?.telemetry);
// All interfaces by default, so http://localhost works whichever address family it resolves to.
const { port } = await app.listen(config.PORT ?? 3000, config.HOST);

console.log(`Bookshop listening on http://localhost:${port}\n`);
for (const route of app.routes) {
  console.log(`  ${route.method.padEnd(6)} ${route.path.padEnd(28)} ${route.controller.name}.${route.handler}`);
}
console.log('\nTry: curl "http://localhost:%d/books?genre=science&sort=desc"', port);
console.log('API reference: http://localhost:%d/docs (the OpenAPI document: /openapi.json)', port);
console.log('Readiness: http://localhost:%d/readyz (503 once shutdown starts), liveness: /livez', port);
console.log('Chat: ws://localhost:%d/rooms/<room>, for readers signed in with POST /account/login', port);
if (tracing !== undefined) console.log('Tracing: spans sent to %s', config.OTEL_EXPORTER_OTLP_ENDPOINT);

// The spans still batched are sent once the server has closed.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void app.close().then(() => tracing?.shutdown()));
