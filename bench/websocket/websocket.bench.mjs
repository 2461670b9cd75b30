// WebSocket echo: messages per second and memory per idle connection, Kiln against the `ws` package
// alone (Node) and against Bun.serve alone (Bun). `node bench/websocket/websocket.bench.mjs`, from
// the repository root after `npm run build`. Each echo is checked before anything is timed; every
// server runs in its own process, the client (the `ws` package) in this one.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import WebSocket from 'ws';
import kiln from '@kiln/core/esbuild';

const here = fileURLToPath(new URL('.', import.meta.url));
const out = fileURLToPath(new URL('../../build/bench-websocket/', import.meta.url));
const seconds = Number(process.env.SECONDS_PER_RUN ?? 3);
const connections = 50;
const idle = 1000;
const bun = (await import('../../test/runtimes/install-runtimes.mjs')).runtimeBinary('bun');

mkdirSync(out, { recursive: true });
await build({
  entryPoints: [`${here}kiln-echo-app.ts`],
  outfile: `${out}kiln-echo-app.mjs`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'es2022',
  external: ['ws'],
  plugins: [kiln({ tsconfig: `${here}tsconfig.json` })],
  logLevel: 'warning',
});

function serve(command, args) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'], cwd: out });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /listening (\d+)/.exec(output);
      if (match) resolve({ port: Number(match[1]), stop: () => child.kill('SIGKILL') });
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
}

const open = (port) =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/echo`);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });

/** Each connection sends a message, waits for its echo, sends the next, for `seconds`. */
async function throughput(port) {
  const sockets = await Promise.all(Array.from({ length: connections }, () => open(port)));
  const probe = await new Promise((resolve) => {
    sockets[0].once('message', (data) => resolve(JSON.parse(data.toString())));
    sockets[0].send(JSON.stringify({ n: 1, text: 'check' }));
  });
  if (probe.n !== 1 || probe.text !== 'check') throw new Error(`wrong echo: ${JSON.stringify(probe)}`);
  let count = 0;
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    sockets.map(
      (ws, i) =>
        new Promise((resolve) => {
          const next = () => {
            if (Date.now() >= until) return resolve();
            ws.send(JSON.stringify({ n: i, text: 'hello, echo' }));
          };
          ws.on('message', () => {
            count++;
            next();
          });
          next();
        }),
    ),
  );
  for (const ws of sockets) ws.terminate();
  return count / seconds;
}

async function memoryPerConnection(port) {
  const read = async () => (await (await fetch(`http://127.0.0.1:${port}/memory`)).json()).rss;
  const before = await read();
  const sockets = [];
  for (let i = 0; i < idle; i += 100) sockets.push(...(await Promise.all(Array.from({ length: 100 }, () => open(port)))));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const after = await read();
  for (const ws of sockets) ws.terminate();
  return (after - before) / idle;
}

const servers = [
  ['Kiln on Node', process.execPath, ['--expose-gc', `${out}kiln-echo-app.mjs`]],
  ['`ws` alone on Node', process.execPath, ['--expose-gc', `${here}ws-echo-server.mjs`]],
  ['Kiln on Bun', bun, [`${out}kiln-echo-app.mjs`]],
  ['`Bun.serve` alone', bun, [`${here}bun-echo-server.mjs`]],
];
const rows = [];
for (const [name, command, args] of servers) {
  const server = await serve(command, args);
  try {
    const perSecond = await throughput(server.port);
    const bytes = await memoryPerConnection(server.port);
    rows.push(`| ${name} | ${Math.round(perSecond).toLocaleString('en')} | ${(bytes / 1024).toFixed(1)} KiB |`);
  } finally {
    server.stop();
  }
}
console.log(
  `WebSocket echo, ${connections} connections, ${seconds} s each; memory: RSS growth over ${idle} idle connections. Load average before: ${loadavg()[0].toFixed(1)} (2 cores), ${new Date().toISOString().slice(0, 10)}.\n`,
);
console.log('| server | echoed messages/s | memory per idle connection |');
console.log('|---|---|---|');
for (const row of rows) console.log(row);
