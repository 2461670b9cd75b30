import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { connectRedis, redisUrl } from './support/redis.js';

// examples/cluster: node:cluster, 2 workers on one port, a global rateLimit({ max: 50 }).
const exampleDir = fileURLToPath(new URL('../../../../examples/cluster/', import.meta.url));
const prefix = `kiln-node-cluster-test:${process.pid}:`;

test('the node:cluster example builds with tspc', () => {
  const build = spawnSync(process.execPath, [`${exampleDir}start.mjs`, '--build-only'], { encoding: 'utf8' });
  assert.is(build.status, 0, build.stdout + build.stderr);
});

async function startExample(env: Record<string, string>): Promise<{ child: ChildProcess; base: string; workers: number[] }> {
  const child = spawn(process.execPath, [`${exampleDir}dist/cluster.js`], {
    env: {
      ...process.env,
      PORT: '0',
      WORKERS: '2',
      MAX: '50',
      WINDOW_MS: '60000',
      REDIS_URL: redisUrl,
      RL_PREFIX: prefix,
      REDIS_TIMEOUT_MS: '10000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  const ready = JSON.parse(line) as { port: number; workers: number[]; ports: number[] };
  assert.is(ready.ports.length, 1, 'both workers listen on one port');
  return { child, base: `http://127.0.0.1:${ready.port}`, workers: ready.workers };
}

/** 500 concurrent requests; per worker (from its x-worker header): requests served and passed. */
async function burst(base: string) {
  const replies = await Promise.all(
    Array.from({ length: 500 }, () =>
      fetch(`${base}/ping`).then(async (r) => {
        await r.arrayBuffer();
        return { status: r.status, worker: r.headers.get('x-worker'), counted: r.headers.get('ratelimit-limit') === '50' };
      }),
    ),
  );
  const byWorker = new Map<string, { served: number; passed: number }>();
  for (const reply of replies) {
    assert.ok(reply.status === 200 || reply.status === 429, `status ${reply.status}`);
    assert.ok(reply.counted, 'every request was counted (none let through uncounted by a Redis timeout)');
    const entry = byWorker.get(reply.worker!) ?? { served: 0, passed: 0 };
    entry.served++;
    if (reply.status === 200) entry.passed++;
    byWorker.set(reply.worker!, entry);
  }
  const passed = replies.filter((r) => r.status === 200).length;
  return { passed, refused: replies.length - passed, byWorker };
}

async function stop(child: ChildProcess) {
  child.kill('SIGTERM');
  if (child.exitCode === null) await once(child, 'exit');
}

test('memory store: each worker counts on its own — 50 passes per worker that got at least 50 requests', async () => {
  const { child, base, workers } = await startExample({ STORE: 'memory' });
  try {
    const { passed, refused, byWorker } = await burst(base);
    const detail = [...byWorker].map(([id, w]) => `worker ${id}: ${w.passed} of ${w.served}`).join(', ');
    console.log(`node:cluster, 2 workers, MemoryStore, 500 concurrent vs max 50: ${passed} passed, ${refused} refused (${detail})`);
    assert.is(byWorker.size, 2, 'both workers served');
    for (const [id, w] of byWorker) assert.is(w.passed, Math.min(50, w.served), `worker ${id}`);
    assert.is(
      passed,
      [...byWorker.values()].reduce((sum, w) => sum + Math.min(50, w.served), 0),
    );
    assert.ok(passed > 50, 'the limit does not hold across processes with the memory store');
    assert.equal(workers.length, 2);
  } finally {
    await stop(child);
  }
});

const redis = await connectRedis();
if ('skip' in redis) console.log(redis.skip);
const client = 'client' in redis ? redis.client : undefined;
const redisTest = client ? test : test.skip;

redisTest('RedisStore: one limit across both workers — exactly 50 of 500 concurrent requests pass', async () => {
  const { child, base } = await startExample({ STORE: 'redis' });
  try {
    const { passed, refused, byWorker } = await burst(base);
    const detail = [...byWorker].map(([id, w]) => `worker ${id}: ${w.passed} of ${w.served}`).join(', ');
    console.log(`node:cluster, 2 workers, RedisStore, 500 concurrent vs max 50: ${passed} passed, ${refused} refused (${detail})`);
    assert.is(byWorker.size, 2, 'both workers served');
    assert.equal([passed, refused], [50, 450]);
  } finally {
    await stop(child);
    const keys = await client!.keys(`${prefix}*`);
    if (keys.length > 0) await client!.del(...keys);
    client!.disconnect();
  }
});

test.run();
