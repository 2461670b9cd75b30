// Route (b) behind a JWT guard (HS256), Kiln's jwtGuard() against Fastify + @fastify/jwt, with the
// interleaved method (bench/interleaved/slots.mjs): the four servers — each framework's (b) plain
// and guarded — started once and loaded in turn for one-second slots, the order rotated every
// cycle, so that a shared machine's load changes hit all four alike. Every request carries the
// token (the plain servers ignore it). Checks before timing: the guarded servers answer (b)'s JSON
// with the token and 401 without.
// Usage: node bench/http/jwt-guard-interleaved.mjs [--cycles=20] [--slot=1]
//   (after `npm run build`, `npm ci --prefix bench` and `npx tspc -p bench/tsconfig.kiln.json`)
import { numberOption } from '../command-line.mjs';
import { checkJwtServer, jwtSecret, path, tokenHeaders as headers } from './jwt-guard-requests.mjs';
import { loadGeneratorName } from './load-generator.mjs';
import { startServer } from './server-process.mjs';
import { compareSlots, loadNow, measureSlots } from '../interleaved/slots.mjs';

const cycles = numberOption('cycles', 20);
const slot = numberOption('slot', 1);
const script = (file) => new URL(file, import.meta.url).pathname;
const kiln = script('../build/kiln/http/servers/kiln/server.js');
const fastify = script('./servers/fastify.mjs');
const variants = [
  { name: 'Kiln (b)', script: kiln, args: [] },
  { name: 'Kiln JWT', script: kiln, args: ['--jwt', jwtSecret] },
  { name: 'Fastify (b)', script: fastify, args: [] },
  { name: 'Fastify JWT', script: fastify, args: ['--jwt', jwtSecret] },
];

const running = [];
try {
  let port = 47_600 + Math.floor(Math.random() * 1000);
  for (const variant of variants) {
    const child = await startServer(variant, ++port, { probe: { path, headers }, extraArgs: variant.args });
    running.push({ name: variant.name, port, process: child });
    await checkJwtServer(port, { headers, guarded: variant.args.length > 0, name: variant.name });
  }
  const scenario = { id: 'jwt', title: 'route (b) with a bearer token', request: { method: 'GET', path, headers } };
  const loadBefore = loadNow();
  const { slots, cycleLoad } = await measureSlots(running, scenario, { cycles, slot });
  console.log(
    `route (b) behind a JWT guard (HS256), ${await loadGeneratorName()}, ${cycles} cycles of ${slot} s slots; load average ${loadBefore} → ${loadNow()} (${Math.min(...cycleLoad)}–${Math.max(...cycleLoad)} in cycles)`,
  );
  const row = (ours, theirs) => {
    const { byCpu, byRps, oursUs, theirsUs } = compareSlots(slots[ours], slots[theirs]);
    console.log(
      `  ${ours} against ${theirs}: req/s ×${byRps.median.toFixed(2)} (IQR ${byRps.q1.toFixed(2)}–${byRps.q3.toFixed(2)}), CPU per request ×${byCpu.median.toFixed(2)} less (IQR ${byCpu.q1.toFixed(2)}–${byCpu.q3.toFixed(2)}); ${oursUs.cpuUs.toFixed(1)} against ${theirsUs.cpuUs.toFixed(1)} µs CPU/req, median ${Math.round(oursUs.rps)} against ${Math.round(theirsUs.rps)} req/s`,
    );
  };
  row('Kiln JWT', 'Fastify JWT');
  row('Kiln (b)', 'Fastify (b)');
  row('Kiln JWT', 'Kiln (b)');
  row('Fastify JWT', 'Fastify (b)');
} finally {
  for (const instance of running) await instance.process.stop();
}
