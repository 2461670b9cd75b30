// `npm start` of the consumer project, on an ephemeral port of 127.0.0.1 (the Getting started page's main.ts
// reads PORT and HOST). A bash keeper runs it as a job of its own process group and ends that
// group (npm, sh, node) when its stdin closes: when stop() closes it, and when this test process
// dies before that, even killed by the runner's timeout.
import { spawn } from 'node:child_process';
import { npmEnvironment } from './run-command.js';

export interface StartedApp {
  readonly origin: string;
  stop(): Promise<void>;
}

const keeper = 'set -m; npm start & read -r _; kill -TERM -- -$! 2>/dev/null; wait';

export function startApp(projectDir: string): Promise<StartedApp> {
  const child = spawn('bash', ['-c', keeper], { cwd: projectDir, env: { ...npmEnvironment, PORT: '0', HOST: '127.0.0.1' } });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const stop = async () => {
    child.stdin.end();
    await exited;
  };
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`npm start printed no port:\n${output}`));
    }, 120_000);
    const read = (chunk: Buffer) => {
      output += chunk;
      const port = output.match(/Listening on port (\d+)/)?.[1];
      if (port !== undefined) {
        clearTimeout(timer);
        resolve({ origin: `http://127.0.0.1:${port}`, stop });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${code}):\n${output}`));
    });
  });
}
