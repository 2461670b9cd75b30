// A fixture app copied into a consumer project outside the repository (node_modules/@kiln/core
// links to this checkout, as `npm install @kiln/core` gives), and the tools that build it:
// tspc, esbuild with @kiln/core/esbuild, vitest with @kiln/core/vite, node --import @kiln/core/register.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../../../', import.meta.url));
export const fixtures = join(root, 'test', 'build-tools', 'fixtures');

export interface FixtureProject {
  readonly dir: string;
  remove(): void;
}

/** The packages a consumer of the fixture has installed: links into this checkout's node_modules. */
const installed = ['typia', 'vite', 'vitest', '@types/node'];

/**
 * A copy of a fixture app in a consumer project. With `typescript: 7`, the project's own
 * `typescript` is TypeScript 7 (this checkout's `typescript-7` alias) and TypeScript 6 sits beside
 * it under the `typescript-6` alias, as docs/guide/typescript-7.md installs them.
 */
export function fixtureProject(name: string, options: { readonly typescript?: 6 | 7 } = {}): FixtureProject {
  const dir = mkdtempSync(join(tmpdir(), `kiln-${name}-`));
  cpSync(join(fixtures, name), dir, { recursive: true });
  // A fixture written in another form of the same app (app-type-level) runs app's one check suite.
  if (!existsSync(join(dir, 'checks.mjs'))) cpSync(join(fixtures, 'app', 'checks.mjs'), join(dir, 'checks.mjs'));
  mkdirSync(join(dir, 'node_modules', '@kiln'), { recursive: true });
  mkdirSync(join(dir, 'node_modules', '@types'), { recursive: true });
  symlinkSync(root, join(dir, 'node_modules', '@kiln', 'core'), 'dir');
  for (const pkg of installed) symlinkSync(join(root, 'node_modules', pkg), join(dir, 'node_modules', pkg), 'dir');
  if (options.typescript === 7) {
    symlinkSync(join(root, 'node_modules', 'typescript-7'), join(dir, 'node_modules', 'typescript'), 'dir');
    symlinkSync(join(root, 'node_modules', 'typescript'), join(dir, 'node_modules', 'typescript-6'), 'dir');
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `fixture-${name}`, private: true, type: 'module' }));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Ran {
  readonly code: number | null;
  readonly output: string;
}

/** Runs a command to its end, collecting stdout and stderr. */
export function run(command: string, args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

export interface Served {
  readonly base: string;
  readonly child: ChildProcess;
  /** What the process printed so far. */
  output(): string;
  stop(): void;
}

/** Starts a server process (PORT=0; Node unless `command` names another runtime) and waits for its `listening on <port>` (or `on http://localhost:<port>`) line. */
export function serve(args: readonly string[], cwd: string, command = process.execPath): Promise<Served> {
  const child = spawn(command, args, { cwd, env: { ...process.env, PORT: '0', NO_COLOR: '1' } });
  let output = '';
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk;
      const port = /listening on (?:http:\/\/localhost:)?(\d+)/.exec(output)?.[1];
      if (port !== undefined) resolve({ base: `http://127.0.0.1:${port}`, child, output: () => output, stop: () => child.kill('SIGTERM') });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code} before listening:\n${output}`)));
  });
}

export const tspc = join(root, 'node_modules', '.bin', 'tspc');
export const vitest = join(root, 'node_modules', '.bin', 'vitest');
