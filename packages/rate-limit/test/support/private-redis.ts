import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { Redis, type RedisOptions } from 'ioredis';
import { test } from 'uvu';

export interface PrivateRedis {
  url: string;
  /** A connected ioredis client of the test's own. */
  admin: Redis;
  stop(): Promise<void>;
}

/** Whether `redis-server` is on the PATH. */
export function redisServerAvailable(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * A redis-server of the test's own on a free loopback port (no persistence): `INFO commandstats`
 * then counts this test's commands alone, which the shared REDIS_URL server (other suites, other
 * processes) cannot promise.
 */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const admin = new Redis(port, '127.0.0.1', { retryStrategy: () => 50 });
  const quiet = () => {};
  admin.on('error', quiet); // refused until redis-server listens: retried, not reported
  await admin.ping();
  return {
    url: `redis://127.0.0.1:${port}`,
    admin,
    async stop() {
      admin.disconnect();
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** Calls of each command Redis has run since it started or its last `CONFIG RESETSTAT` (INFO commandstats). */
export async function commandCalls(admin: Redis): Promise<Record<string, number>> {
  const info = await admin.info('commandstats');
  return Object.fromEntries([...info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)].map(([, name, calls]) => [name!, Number(calls)]));
}

export interface SuiteRedis {
  /** uvu's `test`, or `test.skip` when no redis-server is on the PATH. */
  readonly redisTest: typeof test | typeof test.skip;
  /** The suite's redis-server (started in `test.before`). */
  server(): PrivateRedis;
  /** A client of the suite's own for the stores under test, connected in `test.before`. */
  client(): Redis;
}

/**
 * A private redis-server for a whole uvu suite, with a store client beside the admin one: started
 * before the suite's tests and stopped after; its tests are skipped (and the suite says so) when
 * no redis-server is on the PATH.
 */
export function privateRedisForSuite(suite: string, clientOptions: RedisOptions = {}): SuiteRedis {
  const available = redisServerAvailable();
  if (!available) console.log(`${suite}: no redis-server on the PATH: Redis tests skipped`);
  let redis: PrivateRedis | undefined;
  let client: Redis | undefined;
  test.before(async () => {
    if (!available) return;
    redis = await startPrivateRedis();
    client = new Redis(redis.url, clientOptions);
    await client.ping();
  });
  test.after(async () => {
    client?.disconnect();
    await redis?.stop();
  });
  return { redisTest: available ? test : test.skip, server: () => redis!, client: () => client! };
}
