import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

export interface LocalCluster {
  ports: number[];
  stop(): Promise<void>;
}

/** Whether a loopback port can be bound now. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Three ports whose cluster-bus ports (port + 10000) are free too. */
async function freePorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < count) {
    const port = 20_000 + Math.floor(Math.random() * 9_000);
    if (ports.includes(port)) continue;
    if ((await portFree(port)) && (await portFree(port + 10_000))) ports.push(port);
  }
  return ports;
}

/** Whether `redis-server` and `redis-cli` are on the PATH. */
export function redisBinariesAvailable(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0 && spawnSync('redis-cli', ['--version']).status === 0;
}

/**
 * A real Redis Cluster of three masters on loopback ports (no replicas): three
 * `redis-server --cluster-enabled yes` processes joined by `redis-cli --cluster create`.
 * Resolves once every node reports `cluster_state:ok`.
 */
export async function startCluster(): Promise<LocalCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'kiln-redis-cluster-'));
  const ports = await freePorts(3);
  const nodes: ChildProcess[] = ports.map((port) =>
    spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        `nodes-${port}.conf`,
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'no',
      ],
      { stdio: 'ignore' },
    ),
  );
  // Never keep the test process alive, and never outlive it, even when a test fails half-way.
  for (const node of nodes) node.unref();
  const killAll = () => {
    for (const node of nodes) if (node.exitCode === null) node.kill('SIGKILL');
  };
  process.once('exit', killAll);
  const stop = async () => {
    process.off('exit', killAll);
    for (const node of nodes) node.ref(); // wait for them to exit
    for (const node of nodes) if (node.exitCode === null) node.kill('SIGTERM');
    await Promise.all(nodes.map((node) => (node.exitCode === null ? once(node, 'exit') : undefined)));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // A loaded machine may take a while to start three servers: wait until each answers PING.
    for (const port of ports) {
      const deadline = Date.now() + 30_000;
      while (spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout.trim() !== 'PONG') {
        if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not start`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    const clients = ports.map((port) => new Redis(port, '127.0.0.1'));
    for (const c of clients) c.on('error', () => {});
    await Promise.all(clients.map((c) => c.ping()));
    const create = spawnSync(
      'redis-cli',
      ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '0', '--cluster-yes'],
      { encoding: 'utf8' },
    );
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed:\n${create.stdout}\n${create.stderr}`);
    for (const c of clients) {
      // the nodes learn of each other over the cluster bus; wait until each one says the cluster is whole
      while (!String(await c.cluster('INFO')).includes('cluster_state:ok')) await new Promise((resolve) => setTimeout(resolve, 50));
      c.disconnect();
    }
    return { ports, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
