// Requests/s of route (b) served by 1 process, then by 2 processes sharing the port with
// listen({ reusePort: true }), in the same run, alternating, `rounds` times. The load comes from
// this process: keep-alive connections (each new connection is what the kernel spreads), every
// answer checked. Needs Node 22.12+ on Linux and the benchmark's Kiln build (in bench/:
// tspc -p tsconfig.kiln.json). Usage: node bench/scaling/reuse-port.bench.mjs [--seconds 5] [--rounds 3]
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '5' }, rounds: { type: 'string', default: '3' } } });
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const server = fileURLToPath(new URL('reuse-port-server.mjs', import.meta.url));
const path = '/users/42?active=true&tags=a&tags=b';
const expected = JSON.stringify({ id: 42, active: true, tags: ['a', 'b'], requestId: 'abc' });
const connections = 32;
const port = 18_000 + (process.pid % 1000);

async function startProcesses(count) {
  const children = [];
  for (let i = 0; i < count; i++) {
    const child = spawn(process.execPath, [server, String(port)], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, NODE_ENV: 'production' },
    });
    await new Promise((resolve, reject) => {
      child.stdout.once('data', resolve);
      child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
    children.push(child);
  }
  return children;
}

/** `connections` keep-alive loops for `seconds`: answers per second, and the count of wrong answers. */
async function load() {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  let done = 0;
  let wrong = 0;
  const until = performance.now() + seconds * 1000;
  const one = () =>
    new Promise((resolve) => {
      const request = http.get({ host: '127.0.0.1', port, path, agent, headers: { 'x-request-id': 'abc' } }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => {
          if (response.statusCode === 200 && body === expected) done++;
          else wrong++;
          resolve();
        });
      });
      request.on('error', () => {
        wrong++;
        resolve();
      });
    });
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) await one();
    }),
  );
  agent.destroy();
  return { perSecond: done / seconds, wrong };
}

const results = { 1: [], 2: [] };
for (let round = 0; round < rounds; round++) {
  for (const count of [1, 2]) {
    const children = await startProcesses(count);
    await sleep(300);
    await load(); // warm-up, not counted
    results[count].push(await load());
    for (const child of children) child.kill();
    await sleep(300);
  }
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const one = median(results[1].map((r) => r.perSecond));
const two = median(results[2].map((r) => r.perSecond));
const wrong = [...results[1], ...results[2]].reduce((sum, r) => sum + r.wrong, 0);
const date = new Date().toISOString().slice(0, 10);
const lines = [
  `# listen({ reusePort }): route (b), 2 processes against 1 (${date})`,
  '',
  `Node ${process.versions.node}, ${availableParallelism()} cores shared with other work (load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(
      ' ',
    )} at the end); ${rounds} rounds of ${seconds} s, each after a ${seconds} s warm-up, 1 and 2 processes alternating; ${connections} keep-alive connections from one Node load generator in the same run, which shares the 2 cores with the servers.`,
  '',
  '| Processes | req/s of each round | median |',
  '|---|---|---|',
  `| 1 | ${results[1].map((r) => Math.round(r.perSecond)).join(', ')} | ${Math.round(one)} |`,
  `| 2 (reusePort) | ${results[2].map((r) => Math.round(r.perSecond)).join(', ')} | ${Math.round(two)} |`,
  '',
  `2 processes / 1 process: **${(two / one).toFixed(2)}x**. Wrong or failed answers: ${wrong}.`,
  '',
];
mkdirSync(fileURLToPath(new URL('../results/', import.meta.url)), { recursive: true });
writeFileSync(fileURLToPath(new URL(`../results/${date}-reuse-port.md`, import.meta.url)), lines.join('\n'));
console.log(lines.join('\n'));
