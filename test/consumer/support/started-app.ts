// `npm start` of the consumer project, on an ephemeral port of 127.0.0.1 (the README's main.ts
// reads PORT and HOST), stopped with its whole process group (npm, sh, node).
import { spawn } from 'node:child_process';
import { npmEnvironment } from './run-command.js';

export interface StartedApp {
  readonly origin: string;
  stop(): Promise<void>;
}

export function startApp(projectDir: string): Promise<StartedApp> {
  const child = spawn('npm', ['start'], { cwd: projectDir, detached: true, env: { ...npmEnvironment, PORT: '0', HOST: '127.0.0.1' } });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const stop = async () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
    await exited;
  };
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`npm start printed no port:\n${output}`));
    }, 60_000);
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
