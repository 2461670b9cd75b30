// A server in a child process of its own, for suites that need more than one process (the SSE and
// WebSocket fan-out suites start two on one Redis). Both halves of how the parent learns the port
// live here: the child prints `listening <port>` once it listens, the parent reads it.
import { type ChildProcess, spawn } from 'node:child_process';
import type { KilnServer } from '@kiln/core';

/**
 * In the child: listens on a free loopback port and prints it; on SIGTERM closes the app, then
 * `release()`s what the process holds besides (a hub, a Redis connection), and exits.
 */
export async function listenUntilTerminated(app: KilnServer, release: () => Promise<void> | void): Promise<void> {
  const { port } = await app.listen(0, '127.0.0.1');
  console.log(`listening ${port}`);
  process.on('SIGTERM', async () => {
    await app.close();
    await release();
    process.exit(0);
  });
}

/** In the parent: the server processes a suite started, so that its `after` can stop them all. */
export class ListeningProcesses {
  readonly children: ChildProcess[] = [];

  /** Runs `script` on this Node with `env` added; resolves with the port it printed, rejects if it exits first. */
  start(script: string, env: Record<string, string>): Promise<number> {
    const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    this.children.push(child);
    let output = '';
    return new Promise((resolve, reject) => {
      child.stdout!.on('data', (chunk) => {
        output += chunk;
        const match = /listening (\d+)/.exec(output);
        if (match !== null) resolve(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`the server process exited with ${code}: ${output}`)));
    });
  }

  /** Sends SIGTERM to each process still running and waits until it has exited. */
  async stop(): Promise<void> {
    for (const child of this.children) {
      if (child.exitCode !== null) continue;
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }
}
