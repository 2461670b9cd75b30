import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

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
