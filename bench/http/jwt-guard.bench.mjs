// Route (b) behind a JWT guard (HS256): Kiln's jwtGuard() against Fastify + @fastify/jwt, each
// beside its own unguarded (b), in the same run. Checks before timing: a valid token answers (b)'s
// JSON, a missing one 401. Rounds alternate the servers so that a noisy neighbour hits both.
// Usage: node bench/http/jwt-guard.bench.mjs [--seconds=5] [--rounds=3]  (after `npm run build` and
// `npx tspc -p bench/tsconfig.kiln.json`; bench/ has its own `npm install`).
import { numberOption } from '../command-line.mjs';
import { checkJwtServer, jwtSecret, path, plainHeaders, tokenHeaders } from './jwt-guard-requests.mjs';
import { load, loadGeneratorName } from './load-generator.mjs';
import { startServer } from './server-process.mjs';

const seconds = numberOption('seconds', 5);
const rounds = numberOption('rounds', 3);
const script = (file) => new URL(file, import.meta.url).pathname;
const servers = [
  { name: 'Kiln', script: script('../build/kiln/http/servers/kiln/server.js') },
  { name: 'Fastify', script: script('./servers/fastify.mjs') },
];
const variants = [
  { label: '(b)', args: [], headers: plainHeaders },
  { label: '(b) + JWT', args: ['--jwt', jwtSecret], headers: tokenHeaders },
];

const results = new Map();
let port = 47310;
console.log(`route (b) behind a JWT guard, HS256: ${rounds} rounds of ${seconds} s each, ${await loadGeneratorName()}`);
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? servers : [...servers].reverse();
  for (const server of order) {
    for (const variant of variants) {
      const probe = { path, headers: variant.headers };
      const started = await startServer(server, ++port, { probe, extraArgs: variant.args });
      try {
        await checkJwtServer(port, { headers: variant.headers, guarded: variant.args.length > 0, name: `${server.name} ${variant.label}` });
        const scenario = { id: 'jwt', title: variant.label, request: { method: 'GET', path, headers: variant.headers } };
        const result = await load(port, scenario, seconds);
        if (result.errors > 0) throw new Error(`${server.name} ${variant.label}: ${result.errors} bad answers`);
        const key = `${server.name} ${variant.label}`;
        results.set(key, [...(results.get(key) ?? []), result.rps]);
        console.log(`  round ${round + 1}  ${key.padEnd(22)} ${Math.round(result.rps)} req/s  p99 ${result.p99Ms} ms`);
      } finally {
        await started.stop();
      }
    }
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log('\nmedian req/s:');
for (const [key, values] of results) console.log(`  ${key.padEnd(22)} ${Math.round(median(values))}`);
for (const server of servers) {
  const plain = median(results.get(`${server.name} (b)`));
  const guarded = median(results.get(`${server.name} (b) + JWT`));
  console.log(`  ${server.name}: the guard keeps ${((guarded / plain) * 100).toFixed(0)}% of (b)'s throughput`);
}
const kiln = median(results.get('Kiln (b) + JWT'));
const fastify = median(results.get('Fastify (b) + JWT'));
console.log(`  Kiln + jwtGuard / Fastify + @fastify/jwt: ${(kiln / fastify).toFixed(2)}x`);
