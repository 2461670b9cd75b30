// Node, Bun and Deno: the conformance app in its three modes, each on an ephemeral port of 127.0.0.1
// through app.listen() (node:http, Bun.serve or Deno.serve); one line tells the ports.
import { createConformanceApp } from '../../../build/test/runtimes/conformance-app/app.js';
import document from '../../../build/runtimes-conformance/openapi.json' with { type: 'json' };

const strict = createConformanceApp(true, document);
const loose = createConformanceApp(false, document);
const problem = createConformanceApp(true, document, 'problem+json');
const [strictAddress, looseAddress, problemAddress] = await Promise.all([strict, loose, problem].map((app) => app.listen(0, '127.0.0.1')));
console.log(`kiln-conformance ${JSON.stringify({ strict: strictAddress.port, loose: looseAddress.port, problem: problemAddress.port })}`);
// SIGTERM: app.close() on every app, as a deployment's shutdown does (test/runtimes/websocket.test.ts).
process.on('SIGTERM', async () => {
  await Promise.all([strict, loose, problem].map((app) => app.close()));
  console.log('kiln-conformance closed');
  process.exit(0);
});
