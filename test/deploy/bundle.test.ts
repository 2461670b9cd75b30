// The deployment page's production server (docs/guide/deployment.md, "A production server,
// bundled"): its tsconfig.json, src/app.ts, src/main.ts and build.mjs written as the page gives
// them, the bundle built once with the page's build.mjs, copied to an empty folder (no
// node_modules anywhere above it) and started there by the page's command for Node, Bun and Deno.
// On each: an upload kept in memory, one spilled to a temporary file, an oversized one (413), the
// Redis-backed limit (429), the OpenAPI document and the docs page, then SIGTERM and a clean exit.
// Then the same bundle's shutdown while Redis hangs, and Getting started's watch.mjs stopped by
// SIGTERM. Issue 34, items 8, 9, 11 and 12.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { commandOf, docBlock, docBlocks, root } from './support/doc-blocks.js';
import { deployProject } from './support/deploy-project.js';
import { serve } from './support/served-process.js';

const { runtimeBinary } = (await import(pathToFileURL(join(root, 'test', 'runtimes', 'install-runtimes.mjs')).href)) as {
  runtimeBinary: (name: string) => string;
};
const blocks = docBlocks('deployment.md');
// A database of its own on the suite's Redis, emptied before each runtime: the limit starts afresh.
const redisUrl = `${process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'}/11`;
const project = deployProject(
  'bundle',
  Object.fromEntries(['tsconfig.json', 'src/app.ts', 'src/main.ts', 'build.mjs'].map((f) => [f, docBlock(blocks, f)])),
);
const deployed = mkdtempSync(join(tmpdir(), 'kiln-deploy-empty-'));
// Bun and Deno on PATH, as a reader who installed them has them.
const path = [dirname(process.execPath), dirname(runtimeBinary('bun')), dirname(runtimeBinary('deno')), process.env.PATH].join(delimiter);

test("the page's build.mjs bundles the app; the bundle folder, copied to an empty folder, is the whole deployment", () => {
  execFileSync(process.execPath, ['build.mjs'], { cwd: project, encoding: 'utf8', stdio: 'pipe' });
  cpSync(join(project, 'bundle'), deployed, { recursive: true });
  assert.equal(readdirSync(deployed).sort(), ['node_modules', 'openapi.json', 'server.mjs', 'server.mjs.map']);
  assert.equal(readdirSync(join(deployed, 'node_modules')), ['swagger-ui-dist']);
  for (let dir = dirname(deployed); dir !== dirname(dir); dir = dirname(dir)) assert.not.ok(existsSync(join(dir, 'node_modules')), dir);
});

/**
 * Sends `payload` on a new connection to `base`, runs `then` (more to send), and resolves with
 * what came back once it matches `until` (or the connection closed, or 10 s passed).
 */
function rawExchange(base: string, payload: string | Buffer, until: RegExp, then?: (socket: Socket) => Promise<void>): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(received);
    };
    const timer = setTimeout(done, 10_000);
    socket.on('data', (chunk) => {
      received += chunk;
      if (until.test(received)) done();
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.write(payload);
    void then?.(socket);
  });
}

/** Empties the suite's Redis database: every limit starts afresh. */
async function freshLimits(): Promise<void> {
  const redis = new Redis(redisUrl);
  await redis.flushdb();
  await redis.quit();
}

function upload(base: string, size: number): Promise<Response> {
  const form = new FormData();
  form.append('title', 'Harbour');
  form.append('photo', new File([new Uint8Array(size).fill(7)], 'harbour.jpg', { type: 'image/jpeg' }));
  return fetch(`${base}/photos`, { method: 'POST', body: form });
}

for (const runtime of ['node', 'bun', 'deno'] as const) {
  test(`${runtime}: the page's command serves the bundle from the empty folder (uploads, 413, the Redis limit, the docs page), and SIGTERM ends it cleanly`, async () => {
    await freshLimits();
    const server = serve(commandOf(docBlock(blocks, `run-${runtime}`)), deployed, { PATH: path, REDIS_URL: redisUrl });
    try {
      const base = await server.listening();

      const small = await upload(base, 1000);
      assert.is(small.status, 200, await small.clone().text());
      assert.equal(await small.json(), { title: 'Harbour', name: 'harbour.jpg', size: 1000 });
      // Past memoryFileSize (64 KiB): written to a temporary file (Deno: --allow-write).
      const spilled = await upload(base, 300_000);
      assert.is(spilled.status, 200, await spilled.clone().text());
      assert.equal(await spilled.json(), { title: 'Harbour', name: 'harbour.jpg', size: 300_000 });
      const oversized = await upload(base, 1_500_000);
      assert.is(oversized.status, 413, await oversized.clone().text());
      assert.equal(await oversized.json(), {
        error: 'Payload Too Large',
        message: "File 'photo' is larger than the limit of 1048576 bytes (uploads.maxFileSize)",
      });

      const quota = [];
      for (let i = 0; i < 3; i++) quota.push(await fetch(`${base}/photos/quota`));
      assert.equal(
        quota.map((reply) => reply.status),
        [200, 200, 429],
      );
      assert.is(quota[2]!.headers.get('retry-after'), '60');

      const document = await fetch(`${base}/openapi.json`);
      assert.is(document.status, 200);
      assert.equal(Object.keys(((await document.json()) as { paths: object }).paths).sort(), ['/photos', '/photos/quota']);
      const page = await fetch(`${base}/docs`);
      assert.is(page.status, 200);
      assert.match(await page.text(), '/docs/swagger-ui-bundle.js');
      const script = await fetch(`${base}/docs/swagger-ui-bundle.js`);
      assert.is(script.status, 200);
      assert.ok((await script.arrayBuffer()).byteLength > 100_000);

      // Expect: 100-continue with a declared body over uploads.maxTotalSize: Node's listener lets Kiln
      // refuse before the 100; Bun and Deno send their 100 before the request reaches Kiln.
      const refused = await rawExchange(
        base,
        'POST /photos HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 30000000\r\nExpect: 100-continue\r\n\r\n',
        /HTTP\/1\.1 413/,
      );
      assert.match(refused, runtime === 'node' ? /^HTTP\/1\.1 413 / : /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 413 /, refused);

      // SIGTERM while an upload is half sent: the upload finishes and is answered, then the process exits 0.
      const boundary = 'kiln-deploy';
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nHarbour\r\n--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="h.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
        ),
        Buffer.alloc(200_000, 7),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const head = `POST /photos HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`;
      const inFlight = rawExchange(
        base,
        Buffer.concat([Buffer.from(head), body.subarray(0, 100_000)]),
        /\r\n\r\n\{.*\}$/s,
        async (socket) => {
          await new Promise((resolve) => setTimeout(resolve, 300));
          server.child.kill('SIGTERM');
          await new Promise((resolve) => setTimeout(resolve, 300));
          socket.write(body.subarray(100_000));
        },
      );
      const answered = await inFlight;
      assert.match(answered, /^HTTP\/1\.1 200 /, answered);
      assert.match(answered, '{"title":"Harbour","name":"h.jpg","size":200000}');
      assert.is(await server.exited, 0, server.output());
      assert.not.match(server.output(), /Dynamic require|KILN013|npm install/);
    } finally {
      server.child.kill('SIGKILL');
    }
  });
}

/** A TCP relay to Redis that can stop answering while its connections stay open (Redis hung, or a network cut). */
async function redisRelay(): Promise<{ url: string; hang(): void; close(): void }> {
  const target = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const sockets = new Set<Socket>();
  let hung = false;
  const relay = createNetServer((client) => {
    const upstream = connect(Number(target.port || 6379), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
    }
    client.on('data', (chunk) => void (hung || upstream.write(chunk)));
    upstream.on('data', (chunk) => void (hung || client.write(chunk)));
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  return {
    url: `redis://127.0.0.1:${(relay.address() as AddressInfo).port}/11`,
    hang: () => void (hung = true),
    close: () => {
      for (const socket of sockets) socket.destroy();
      relay.close();
    },
  };
}

test("SIGTERM while Redis hangs: the page's main.ts closes, RedisConnection.onClose() is abandoned at shutdownTimeout and named, and the process exits 0 (item 11)", async () => {
  await freshLimits();
  const relay = await redisRelay();
  const server = serve(commandOf(docBlock(blocks, 'run-node')), deployed, { PATH: path, REDIS_URL: relay.url });
  try {
    const base = await server.listening();
    assert.is((await fetch(`${base}/photos/quota`)).status, 200);
    relay.hang(); // client.quit() now never gets its reply
    server.child.kill('SIGTERM');
    assert.is(await server.exited, 0, server.output());
    const abandoned = server
      .output()
      .split('\n')
      .filter((line) => line.includes('"hook"'))
      .map((line) => JSON.parse(line));
    assert.equal(
      abandoned.map((line) => [line.level, line.hook, line.msg]),
      [[50, 'RedisConnection.onClose()', 'RedisConnection.onClose() was still running 10000 ms after close() began: abandoned']],
    );
  } finally {
    server.child.kill('SIGKILL');
    relay.close();
  }
});

test("Getting started's watch.mjs: SIGTERM to the watcher stops the server it started, so the port is free again (item 12)", async () => {
  const started = docBlocks('getting-started.md', 'consumer-test');
  writeFileSync(join(project, 'watch.mjs'), docBlock(started, 'watch.mjs'));
  const watcher = serve(commandOf(docBlock(started, 'watch-run')), project, { PATH: path, REDIS_URL: redisUrl });
  try {
    const base = await watcher.listening();
    assert.is((await fetch(`${base}/photos/quota`)).status, 200);
    watcher.child.kill('SIGTERM');
    assert.is(await watcher.exited, 0, watcher.output());
    const refused = await fetch(`${base}/photos/quota`).then(
      () => 'answered',
      (error: Error & { cause?: { code?: string } }) => error.cause?.code,
    );
    assert.is(refused, 'ECONNREFUSED', 'the server the watcher started is gone');
  } finally {
    watcher.child.kill('SIGKILL');
  }
});

test.after(() => {
  rmSync(project, { recursive: true, force: true });
  rmSync(deployed, { recursive: true, force: true });
});

test.run();
