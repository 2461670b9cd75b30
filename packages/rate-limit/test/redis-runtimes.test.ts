// RedisStore on Node, Bun and Deno: one app (support/redis-runtime-server.ts) limited by RedisStores
// — the sliding log and the sliding-window counter, with ioredis and with node-redis, Redis's own
// clock and a given one, and a Redis that is gone (fail open, fail closed) — served over real HTTP
// on 127.0.0.1 by each runtime's own server, against the real redis-server of REDIS_URL. Every
// status, rate-limit header and body is checked exactly, and must be the same on every runtime.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { connectRedis, redisUrl } from './support/redis.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const server = fileURLToPath(new URL('./support/redis-runtime-server.js', import.meta.url));
const installer = pathToFileURL(join(root, 'test', 'runtimes', 'install-runtimes.mjs')).href;
const { runtimeBinary } = (await import(installer)) as { runtimeBinary: (name: string) => string };

// The server's frozen Date.now (support/redis-runtime-server.ts), in seconds: 30 s into a minute.
const frozenSeconds = 1_767_225_630;
const runtimes = ['node', 'bun', 'deno'] as const;
type Runtime = (typeof runtimes)[number];

interface Answer {
  status: number;
  headers: Record<string, string | null>;
  body: string;
}

const limitHeaderNames = ['content-type', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after'];

async function ask(base: string, path: string, client: string): Promise<Answer> {
  const response = await fetch(base + path, { headers: { 'x-client': client } });
  const headers = Object.fromEntries(limitHeaderNames.map((name) => [name, response.headers.get(name)]));
  return { status: response.status, headers, body: await response.text() };
}

const ok = (remaining: string, reset: string): Answer => ({
  status: 200,
  headers: {
    'content-type': 'application/json; charset=utf-8',
    'ratelimit-limit': '2',
    'ratelimit-remaining': remaining,
    'ratelimit-reset': reset,
    'retry-after': null,
  },
  body: '{"ok":true}',
});
const refused = (retryAfter: number): Answer => ({
  status: 429,
  headers: {
    'content-type': 'application/json',
    'ratelimit-limit': '2',
    'ratelimit-remaining': '0',
    'ratelimit-reset': String(frozenSeconds + retryAfter),
    'retry-after': String(retryAfter),
  },
  body: `{"error":"Too Many Requests","message":"Rate limit exceeded. Try again in ${retryAfter} seconds."}`,
});

/** Starts the app on a runtime; resolves with its base URL once it prints its port. */
function serve(runtime: Runtime, prefix: string): Promise<{ base: string; child: ChildProcess; output: () => string }> {
  const [command, args] =
    runtime === 'node'
      ? [process.execPath, [server]]
      : runtime === 'bun'
        ? [runtimeBinary('bun'), [server]]
        : [runtimeBinary('deno'), ['run', '--allow-net', '--allow-env', '--allow-read', '--allow-sys', server]];
  const child = spawn(command, args, { cwd: root, env: { ...process.env, REDIS_URL: redisUrl, RL_PREFIX: prefix, NO_COLOR: '1' } });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = /kiln-redis-runtime (\{.*\})/.exec(output);
      if (match === null) return;
      child.stdout.off('data', check);
      const { port } = JSON.parse(match[1]!) as { port: number };
      resolve({ base: `http://127.0.0.1:${port}`, child, output: () => output });
    };
    child.stdout.on('data', check);
    child.once('exit', (code) => reject(new Error(`${runtime} exited with ${code} before serving:\n${output}`)));
  });
}

const redis = await connectRedis();
if ('skip' in redis) console.log(redis.skip);
const admin = 'client' in redis ? redis.client : undefined;
const redisTest = admin ? test : test.skip;

// The server resolves '@kiln/core' as an installed app would, from a node_modules above it; under
// build/ that is the link the conformance suite also makes (the root package, this checkout).
const linked = join(root, 'build', 'node_modules', '@kiln');
mkdirSync(linked, { recursive: true });
rmSync(join(linked, 'core'), { force: true });
symlinkSync(root, join(linked, 'core'), 'dir');

const answersOf: Partial<Record<Runtime, Record<string, Answer[]>>> = {};

for (const runtime of runtimes) {
  redisTest(`${runtime}: RedisStore limits over HTTP with exact statuses, headers and bodies`, async () => {
    const prefix = `kiln-rl-runtimes:${process.pid}:${runtime}:`;
    const served = await serve(runtime, prefix);
    const answers: Record<string, Answer[]> = {};
    try {
      const three = async (path: string) =>
        (answers[path] = [await ask(served.base, path, 'c1'), await ask(served.base, path, 'c1'), await ask(served.base, path, 'c1')]);
      // The sliding log on the given (frozen) clock: the reset is the first request + 60 s, exactly.
      for (const path of ['/log/ioredis', '/log/redis']) {
        assert.equal(await three(path), [ok('1', '1767225690'), ok('0', '1767225690'), refused(60)], `${runtime} ${path}`);
      }
      // The counter on the given (frozen) clock, 30 s into its window: one slot frees when the estimate
      // falls by one, the refused request passes again at 1767225690.
      for (const path of ['/counter/ioredis', '/counter/redis']) {
        assert.equal(await three(path), [ok('1', '1767225720'), ok('0', '1767225690'), refused(60)], `${runtime} ${path}`);
      }
      // Both algorithms on Redis's own clock (TIME): real seconds pass between the three requests (more
      // than one on a loaded machine), so the wait is whatever it is, but every figure agrees with it.
      for (const path of ['/log/redis-clock', '/counter/redis-clock']) {
        const onRedisClock = await three(path);
        assert.equal(
          onRedisClock.map((a) => [a.status, a.headers['ratelimit-remaining']]),
          [
            [200, '1'],
            [200, '0'],
            [429, '0'],
          ],
          `${runtime} ${path}`,
        );
        const wait = Number(onRedisClock[2]!.headers['retry-after']);
        assert.ok(wait >= 1 && wait <= 120, `${runtime} ${path}: Retry-After ${wait}`);
        assert.equal(onRedisClock[2], refused(wait), `${runtime} ${path}`);
      }
      // The counter holds one key of three numbers, counted on Redis.
      assert.match(String(await admin!.get(`${prefix}counter-ioredis:{c1}`)), /^\d+ 0 2$/);
      // Redis gone: after timeoutMs (100) the request passes uncounted without headers, or gets the limiter's 429.
      const open = await ask(served.base, '/gone/open', 'c1');
      assert.equal(open, {
        status: 200,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'ratelimit-limit': null,
          'ratelimit-remaining': null,
          'ratelimit-reset': null,
          'retry-after': null,
        },
        body: '{"ok":true}',
      });
      answers['/gone/open'] = [open];
      const closed = await ask(served.base, '/gone/closed', 'c1');
      assert.equal(closed, refused(60));
      answers['/gone/closed'] = [closed];
      answersOf[runtime] = answers;
    } catch (error) {
      console.log(served.output());
      throw error;
    } finally {
      served.child.kill('SIGKILL');
    }
  });
}

redisTest('every runtime answered as Node did (the limiters on the Redis clock aside: their wait is the real window position)', () => {
  const node = answersOf.node;
  assert.ok(node !== undefined, 'Node answered');
  for (const runtime of ['bun', 'deno'] as const) {
    const theirs = answersOf[runtime];
    assert.ok(theirs !== undefined, `${runtime} answered`);
    for (const path of Object.keys(node)) if (!path.endsWith('/redis-clock')) assert.equal(theirs[path], node[path], `${runtime} ${path}`);
  }
});

test.after(() => admin?.disconnect());
test.run();
