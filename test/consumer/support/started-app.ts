// A long-running command of the consumer project (`npm start`, `node server.mjs`, `node watch.mjs`),
// with PORT=0 HOST=127.0.0.1 so each server it starts listens on an ephemeral port of 127.0.0.1 (the
// page's main.ts reads PORT and HOST). A bash keeper runs it as a job of its own process group and
// ends that group (npm, sh, node, a server it spawned) when its stdin closes: when stop() closes
// it, and when this test process dies before that, even killed by the runner's timeout.
import { spawn } from 'node:child_process';
import { npmEnvironment } from './run-command.js';

export interface StartedApp {
  /** The origin of the server the command started last. */
  readonly origin: string;
  /** Everything the command printed so far. */
  readonly output: string;
  /** Resolves with the origin of the `count`-th server the command starts (1: the first). */
  listening(count: number): Promise<string>;
  stop(): Promise<void>;
}

export async function startApp(projectDir: string, command = 'npm start'): Promise<StartedApp> {
  const keeper = `set -m; ${command} & read -r _; kill -TERM -- -$! 2>/dev/null; wait`;
  const child = spawn('bash', ['-c', keeper], { cwd: projectDir, env: { ...npmEnvironment, PORT: '0', HOST: '127.0.0.1' } });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  let output = '';
  let closed: number | null | undefined;
  const waiters = new Set<() => void>();
  const read = (chunk: Buffer) => {
    output += chunk;
    for (const wake of waiters) wake();
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  child.on('close', (code) => {
    closed = code;
    for (const wake of waiters) wake();
  });
  const ports = () => [...output.matchAll(/Listening on port (\d+)/g)].map((m) => `http://127.0.0.1:${m[1]}`);
  const app: StartedApp = {
    get origin() {
      return ports().at(-1) ?? '';
    },
    get output() {
      return output;
    },
    listening(count) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = ports()[count - 1];
          if (found !== undefined) finish(() => resolve(found));
          else if (closed !== undefined) finish(() => reject(new Error(`${command} exited (${closed}):\n${output}`)));
        };
        const timer = setTimeout(() => finish(() => reject(new Error(`${command} started no server #${count}:\n${output}`))), 120_000);
        const finish = (settle: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          settle();
        };
        waiters.add(check);
        check();
      });
    },
    async stop() {
      child.stdin.end();
      await exited;
    },
  };
  try {
    await app.listening(1);
  } catch (error) {
    await app.stop();
    throw error;
  }
  return app;
}
