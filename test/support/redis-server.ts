// A redis-server of the test's own, on a free loopback port, for suites that need a real Redis.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';

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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Starts redis-server (no persistence) and waits until it answers PING. */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  for (let i = 0; i < 100; i++) {
    if (
      spawnSync('redis-cli', ['-p', String(port), 'ping'])
        .stdout?.toString()
        .trim() === 'PONG'
    ) {
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
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server on ${port} did not start`);
}
