// What one requestLogger() line costs alone, in a loop, part by part: pino building it, sonic-boom
// handing it on, the write(2) itself, and the documented whole (`pino(pino.destination(path))`).
// The server pays each part 2-4 times this (bench/results/2026-11-28-logger.md): compare with
// `interleaved.mjs b` over logged-server.js's sinks. CPU µs per line, the best of 5 rounds.
//   node bench/profile/access-line-parts.mjs [file (default /dev/null)]
import fs from 'node:fs';
import pino from 'pino';
import SonicBoom from 'sonic-boom';

const target = process.argv[2] ?? '/dev/null';
const rounds = 5;
const perRound = 200_000;
// requestLogger()'s fields for route (b), built afresh for each line as the middleware does
const fields = () => ({
  req: { id: 'abc', method: 'GET', url: '/users/42?active=true&tags=a&tags=b' },
  res: { statusCode: 200 },
  responseTime: 0,
});
let kept = 0;
let built = '';
const builder = pino({}, { write: (line) => (built = line) });
builder.info(fields(), 'request completed');
const line = built;
const fd = fs.openSync(target, 'a');
const sonic = new SonicBoom({ fd: fs.openSync(target, 'a'), sync: true });
const documented = pino(pino.destination(target));

const parts = {
  'pino building the line (a destination that keeps it in a variable)': () => builder.info(fields(), 'request completed'),
  'JSON.stringify of the fields alone': () => (kept += JSON.stringify(fields()).length),
  'fs.writeSync of the built line': () => fs.writeSync(fd, line),
  'sonic-boom (sync) writing the built line': () => sonic.write(line),
  'the whole: pino(pino.destination(path)).info(fields, msg)': () => documented.info(fields(), 'request completed'),
};
console.log(`Node ${process.version}, to ${target}`);
for (const [name, run] of Object.entries(parts)) {
  let best = Infinity;
  for (let round = 0; round < rounds; round++) {
    const before = process.cpuUsage();
    for (let i = 0; i < perRound; i++) run();
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / perRound);
  }
  console.log(`${best.toFixed(2).padStart(6)} µs  ${name}`);
}
if (target !== '/dev/null') fs.truncateSync(target, 0);
