// A server process started by a docs command line (through bash, as a reader types it), with
// PORT=0 and HOST=127.0.0.1 so that it listens on an ephemeral port of 127.0.0.1. `exec` makes the
// command the process itself, so that SIGTERM reaches it as it would under a process manager.
import { spawn, type ChildProcess } from 'node:child_process';

export interface ServedProcess {
  readonly child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** Resolves with the origin of the `count`-th "Listening on port N" line (1: the first). */
  listening(count?: number): Promise<string>;
  /** Resolves with the exit code (or signal) once the process has exited. */
  readonly exited: Promise<number | string | null>;
}

export function serve(command: string, cwd: string, env: NodeJS.ProcessEnv): ServedProcess {
  const child = spawn('bash', ['-c', `exec ${command}`], {
    cwd,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', NO_COLOR: '1', ...env },
  });
  let output = '';
  const waiters = new Set<() => void>();
  let code: number | string | null | undefined;
  const wake = () => {
    for (const waiter of waiters) waiter();
  };
  child.stdout!.on('data', (chunk) => {
    output += chunk;
    wake();
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
    wake();
  });
  const exited = new Promise<number | string | null>((resolve) =>
    child.on('exit', (exitCode, signal) => {
      code = exitCode ?? signal;
      wake();
      resolve(code);
    }),
  );
  // A suite that fails half-way leaves no server behind.
  process.once('exit', () => child.kill('SIGKILL'));
  return {
    child,
    output: () => output,
    exited,
    listening(count = 1) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => finish(() => reject(new Error(`${command} started no server #${count}:\n${output}`))), 120_000);
        const check = () => {
          const port = [...output.matchAll(/Listening on port (\d+)/g)][count - 1]?.[1];
          if (port !== undefined) finish(() => resolve(`http://127.0.0.1:${port}`));
          else if (code !== undefined) finish(() => reject(new Error(`${command} exited (${code}):\n${output}`)));
        };
        const finish = (settle: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          settle();
        };
        waiters.add(check);
        check();
      });
    },
  };
}
