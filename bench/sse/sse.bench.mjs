// Server-sent events: events per second to 100 clients, and memory per idle SSE connection, Kiln on
// Node. `node bench/sse/sse.bench.mjs`, from the repository root after `npm run build`. The server
// runs in its own process, the clients (node:http) in this one; everything on 127.0.0.1.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import kiln from '@kiln/core/esbuild';

const here = fileURLToPath(new URL('.', import.meta.url));
const out = fileURLToPath(new URL('../../build/bench-sse/', import.meta.url));
const seconds = Number(process.env.SECONDS_PER_RUN ?? 3);
const clients = 100;
const idle = 1000;

mkdirSync(out, { recursive: true });
await build({
  entryPoints: [`${here}kiln-sse-app.ts`],
  outfile: `${out}kiln-sse-app.mjs`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'es2022',
  plugins: [kiln({ tsconfig: `${here}tsconfig.json` })],
  logLevel: 'warning',
});

const child = spawn(process.execPath, ['--expose-gc', `${out}kiln-sse-app.mjs`], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise((resolve, reject) => {
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
    const match = /listening (\d+)/.exec(output);
    if (match) resolve(Number(match[1]));
  });
  child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
});
const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });

/** Opens a stream; `onText` sees its body. Resolves with the request once the head arrived. */
function stream(path, onText) {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path, agent }, (response) => {
      if (response.headers['content-type'] !== 'text/event-stream') reject(new Error(`not a stream: ${response.statusCode}`));
      response.setEncoding('utf8');
      response.on('data', onText);
      response.on('error', () => {});
      resolve(request);
    });
    request.on('error', reject);
  });
}

const load = loadavg()[0];

// Memory first, in a fresh process: the server's RSS and heap growth over `idle` open streams that receive nothing, after a GC.
const memory = async () => await (await fetch(`http://127.0.0.1:${port}/memory`)).json();
const empty = await memory();
const idling = [];
for (let i = 0; i < idle; i += 100) idling.push(...(await Promise.all(Array.from({ length: 100 }, () => stream('/idle', () => {})))));
await new Promise((resolve) => setTimeout(resolve, 500));
const full = await memory();
for (const request of idling) request.destroy();
await new Promise((resolve) => setTimeout(resolve, 500));

// Events/s: every client counts the blank lines that end its events; the first event is checked.
let events = 0;
let first = '';
const counting = await Promise.all(
  Array.from({ length: clients }, () =>
    stream('/ticks', (text) => {
      if (first.length < 200) first += text;
      events += text.split('\n\n').length - 1;
    }),
  ),
);
await new Promise((resolve) => setTimeout(resolve, 500));
if (!first.includes('event: tick\nid: 0\ndata: {"n":0,"text":"tick"}\n\n')) throw new Error(`unexpected stream: ${first}`);
const before = events;
await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
const perSecond = Math.round((events - before) / seconds);
for (const request of counting) request.destroy();
child.kill('SIGKILL');

const kib = (bytes) => `${(bytes / idle / 1024).toFixed(1)} KiB`;
console.log(
  `SSE, ${clients} clients, ${seconds} s; memory: growth over ${idle} idle streams after a GC. Load average before it: ${load.toFixed(1)} (2 cores), ${new Date().toISOString().slice(0, 10)}.\n`,
);
console.log('| server | events/s to 100 clients | RSS per idle stream | heap per idle stream |');
console.log('|---|---|---|---|');
console.log(
  `| Kiln on Node ${process.versions.node.split('.')[0]} | ${perSecond.toLocaleString('en-US')} | ${kib(full.rss - empty.rss)} | ${kib(full.heapUsed - empty.heapUsed)} |`,
);
process.exit(0);
