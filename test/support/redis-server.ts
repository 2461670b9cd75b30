// A redis-server of the test's own, on a free loopback port, for suites that need a real Redis.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { freePort } from './free-port.js';

export interface TestRedis {
  readonly port: number;
  readonly url: string;
  stop(): Promise<void>;
}

/** Whether redis-server is installed; with REDIS_URL set, its absence is an error, not a skip. */
export function redisInstalled(): boolean {
  const installed = spawnSync('redis-server', ['--version']).status === 0;
  if (!installed && process.env.REDIS_URL !== undefined) throw new Error('REDIS_URL is set but redis-server is not on the PATH');
  return installed;
}

/** Starts redis-server on `port` (no persistence) and resolves with its process once it answers PING. */
export async function startRedisServer(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  for (let i = 0; i < 100; i++) {
    if (
      spawnSync('redis-cli', ['-p', String(port), 'ping'])
        .stdout?.toString()
        .trim() === 'PONG'
    )
      return child;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server on ${port} did not start`);
}

/** Starts redis-server (no persistence) on a free port and waits until it answers PING. */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  const child = await startRedisServer(port);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
