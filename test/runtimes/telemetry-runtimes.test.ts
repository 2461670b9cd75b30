// OpenTelemetry and closing on Node, Bun, Deno and workerd, over real HTTP on 127.0.0.1: each
// listening runtime runs entries/telemetry.mjs, workerd entries/telemetry-worker.mjs bundled by
// esbuild (the conformance app's BooksController with the SDK registered, spans printed as
// lines). Each must produce the server span (name, attributes, the caller's traceparent, ERROR on
// a 500) and nest a span started after an `await` under it (the application's AsyncLocalStorage
// context manager); Node, Bun and Deno, once SIGTERM has started close(), answer every request
// with `Connection: close` while they drain (readiness 503). Workers have no close().
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { root, runtimeBinary, serveWorkers } from './support/served-runtimes.js';

interface PrintedSpan {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  status: number;
  attributes: Record<string, unknown>;
  events: string[];
}

interface Running {
  name: string;
  /** The runtime's process (undefined for workerd, which the harness runs). */
  child: ChildProcess | undefined;
  base: string;
  output(): string;
  stop(): void;
}

const entry = join(root, 'test', 'runtimes', 'entries', 'telemetry.mjs');
const runtimes: { name: string; command: () => string; args: string[] }[] = [
  { name: 'node', command: () => process.execPath, args: [] },
  { name: 'bun', command: () => runtimeBinary('bun'), args: [] },
  { name: 'deno', command: () => runtimeBinary('deno'), args: ['run', '--allow-net', '--allow-env', '--allow-read', '--allow-sys'] },
];
const running: Running[] = [];

/** Waits until `pattern` is in the output (or the process exits, or 30 s pass). */
async function outputMatching(runtime: Running, pattern: RegExp): Promise<RegExpExecArray> {
  for (let waited = 0; waited < 30_000; waited += 10) {
    const match = pattern.exec(runtime.output());
    if (match !== null) return match;
    if (runtime.child?.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${runtime.name}: no ${pattern} in its output:\n${runtime.output()}`);
}

function start(name: string, command: string, args: string[]): Running {
  const child = spawn(command, [...args, entry], { cwd: root, env: { ...process.env, NO_COLOR: '1' } });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return { name, child, base: '', output: () => output, stop: () => child.kill('SIGKILL') };
}

/** The printed span named `name` whose url.path is `path`. */
async function printedSpan(runtime: Running, name: string, path: string): Promise<PrintedSpan> {
  for (let waited = 0; waited < 5_000; waited += 10) {
    for (const line of runtime.output().split('\n')) {
      if (!line.startsWith('kiln-span ')) continue;
      const span = JSON.parse(line.slice('kiln-span '.length)) as PrintedSpan;
      if (span.name === name && span.attributes['url.path'] === path) return span;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${runtime.name}: no span ${name} for ${path}:\n${runtime.output()}`);
}

function printedSpans(runtime: Running): PrintedSpan[] {
  return runtime
    .output()
    .split('\n')
    .filter((line) => line.startsWith('kiln-span '))
    .map((line) => JSON.parse(line.slice('kiln-span '.length)) as PrintedSpan);
}

/** The worker entry bundled as a Worker is deployed: one ES module (the SDK's browser builds, node:* left to workerd). */
async function bundleWorker(folder: string): Promise<void> {
  const { build } = await import('esbuild');
  await build({
    entryPoints: [join(root, 'test', 'runtimes', 'entries', 'telemetry-worker.mjs')],
    outfile: join(folder, 'telemetry-worker.mjs'),
    bundle: true,
    platform: 'browser',
    external: ['node:*'],
    format: 'esm',
    target: 'es2022',
    // Class names are attributes of the spans (kiln.controller): kept as written.
    keepNames: true,
    logLevel: 'warning',
  });
}

test.before(async () => {
  for (const runtime of runtimes) running.push(start(runtime.name, runtime.command(), runtime.args));
  const folder = join(root, 'build', 'runtimes-telemetry');
  mkdirSync(folder, { recursive: true });
  await bundleWorker(folder);
  const workers = await serveWorkers({ traced: 'telemetry-worker.mjs' }, folder);
  running.push({ name: 'workerd', child: undefined, base: workers.bases.traced!, output: workers.output, stop: workers.stop });
  for (const runtime of running) {
    if (runtime.child === undefined) continue;
    const match = await outputMatching(runtime, /kiln-telemetry (\{.*\})/);
    runtime.base = `http://127.0.0.1:${(JSON.parse(match[1]!) as { port: number }).port}`;
  }
});

test.after(() => {
  for (const runtime of running) runtime.stop();
});

test('Node, Bun, Deno and workerd each produce the server span, with the caller’s trace and the routed attributes', async () => {
  assert.equal(
    running.map((runtime) => runtime.name),
    ['node', 'bun', 'deno', 'workerd'],
  );
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  for (const runtime of running) {
    const reply = await fetch(`${runtime.base}/books/2`, {
      headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01`, 'user-agent': 'kiln-runtimes/1' },
    });
    assert.is(reply.status, 200, runtime.name);
    await reply.arrayBuffer();
    const span = await printedSpan(runtime, 'GET /books/:id', '/books/2');
    assert.is(span.kind, 1, `${runtime.name}: SERVER`);
    assert.is(span.traceId, traceId, runtime.name);
    assert.is(span.parentSpanId, '00f067aa0ba902b7', runtime.name);
    assert.is(span.status, 0, runtime.name);
    const port = Number(new URL(runtime.base).port);
    const protocol = runtime.name === 'node' ? { 'network.protocol.version': '1.1' } : {};
    assert.equal(
      span.attributes,
      {
        'http.request.method': 'GET',
        'url.path': '/books/2',
        'url.scheme': 'http',
        'http.route': '/books/:id',
        'kiln.controller': 'BooksController',
        'kiln.handler': 'get',
        'code.function.name': 'BooksController.get',
        'server.address': '127.0.0.1',
        'server.port': port,
        ...protocol,
        'user_agent.original': 'kiln-runtimes/1',
        'http.response.status_code': 200,
      },
      runtime.name,
    );
  }
});

test('a span started after an await in a middleware is a child of the server span, on every runtime', async () => {
  for (const runtime of running) {
    const reply = await fetch(`${runtime.base}/books/1`);
    assert.is(reply.status, 200, runtime.name);
    await reply.arrayBuffer();
    const server = await printedSpan(runtime, 'GET /books/:id', '/books/1');
    const child = printedSpans(runtime).find((span) => span.name === 'after a timer');
    assert.ok(child, `${runtime.name}: the middleware's span`);
    assert.is(child.traceId, server.traceId, runtime.name);
    assert.is(child.parentSpanId, server.spanId, runtime.name);
  }
});

test('a 500 is ERROR with error.type and the exception recorded, on every runtime', async () => {
  for (const runtime of running) {
    const reply = await fetch(`${runtime.base}/books/fail/plain`);
    assert.is(reply.status, 500, runtime.name);
    await reply.arrayBuffer();
    const span = await printedSpan(runtime, 'GET /books/fail/plain', '/books/fail/plain');
    assert.is(span.status, 2, runtime.name);
    assert.is(span.attributes['error.type'], 'Error', runtime.name);
    assert.is(span.attributes['http.response.status_code'], 500, runtime.name);
    assert.equal(span.events, ['exception'], runtime.name);
  }
});

test('while close() drains, every answer carries Connection: close on Node, Bun and Deno; readiness is 503', async () => {
  for (const runtime of running) {
    if (runtime.child === undefined) continue; // workerd: a Worker is never closed by the app
    const before = await fetch(`${runtime.base}/books/2`);
    await before.arrayBuffer();
    assert.is.not(before.headers.get('connection'), 'close', `${runtime.name}: before close()`);
    runtime.child.kill('SIGTERM');
    await outputMatching(runtime, /kiln-telemetry closing/);
    // A Kiln value, a Response made by hand, a 500, the health route, a 404.
    for (const path of ['/books/2', '/books/raw/response', '/books/fail/plain', '/readyz', '/nowhere']) {
      const reply = await fetch(`${runtime.base}${path}`);
      await reply.arrayBuffer();
      assert.is(reply.headers.get('connection'), 'close', `${runtime.name}: ${path}`);
      if (path === '/readyz') assert.is(reply.status, 503, `${runtime.name}: readiness while closing`);
    }
  }
});

test.run();
