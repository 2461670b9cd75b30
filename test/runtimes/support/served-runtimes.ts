// Serves the conformance app on each runtime: esbuild bundles the tspc build into one ES module
// per entry, and each runtime's process serves it on 127.0.0.1 (Node, Bun and Deno through
// app.listen(); workerd through its own sockets and the module's fetch).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = fileURLToPath(new URL('../../../../', import.meta.url));
const bundles = join(root, 'build', 'runtimes-conformance');
// The installer is a plain script (test/run.mjs uses it too), read from the source tree.
const installer = pathToFileURL(join(root, 'test', 'runtimes', 'install-runtimes.mjs')).href;
export const { runtimeBinary } = (await import(installer)) as { runtimeBinary: (name: string) => string };
export type RuntimeName = 'node20' | 'node26' | 'bun' | 'deno' | 'workerd';
export type Mode = 'strict' | 'loose' | 'problem';

export interface ServedRuntime {
  readonly name: RuntimeName;
  readonly bases: Readonly<Record<Mode, string>>;
  output(): string;
  stop(): void;
  /** Sends SIGTERM: the listen entry closes its apps (app.close()); nothing on workerd. */
  terminate(): void;
  /** The process's exit code (or signal name) once it has exited (never, for workerd's). */
  readonly exited: Promise<number | string | null>;
}

/** The build of the app as one module per entry: what a user deploys to each runtime. */
export async function bundleEntries(): Promise<void> {
  // The app's imports of '@kiln/core' resolve to this checkout, as `npm install @kiln/core` would give.
  const linked = join(root, 'build', 'node_modules', '@kiln');
  mkdirSync(linked, { recursive: true });
  rmSync(join(linked, 'core'), { force: true });
  symlinkSync(root, join(linked, 'core'), 'dir');
  const { build } = await import('esbuild');
  await build({
    entryPoints: ['listen', 'worker-strict', 'worker-loose', 'worker-problem'].map((name) =>
      join(root, 'test', 'runtimes', 'entries', `${name}.mjs`),
    ),
    outdir: bundles,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // No runtime's built-ins are assumed: only @kiln/rate-limit's node:crypto stays an import, and
    // @fastify/busboy (CommonJS that requires node:stream), imported from node_modules by the
    // runtimes that read uploads (Node, Bun, Deno), and ws (CommonJS that requires node:http),
    // which Node's listener imports only when a WebSocket route is asked for.
    platform: 'neutral',
    mainFields: ['module', 'main'],
    external: ['node:*', '@fastify/busboy', 'ws'],
    format: 'esm',
    target: 'es2022',
    logLevel: 'warning',
  });
}

/** Waits for `pattern` in a process's output; rejects with the output when it exits first. */
function waitFor(child: ChildProcess, pattern: RegExp, read: () => string): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = pattern.exec(read());
      if (match !== null) {
        child.stdout?.off('data', check);
        resolve(match);
      }
    };
    child.stdout?.on('data', check);
    child.on('exit', (code) => reject(new Error(`exited with ${code} before serving:\n${read()}`)));
    check();
  });
}

function started(command: string, args: readonly string[], extra: object = {}): { child: ChildProcess; output: () => string } {
  const child = spawn(command, args, {
    cwd: bundles,
    env: { ...process.env, NO_COLOR: '1', KILN_CONFORMANCE_PORT: '8081', KILN_CONFORMANCE_MODE: 'test' },
    ...extra,
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  return { child, output: () => output };
}

/** Node, Bun or Deno running the listen entry. */
async function listening(name: RuntimeName, command: string, args: readonly string[]): Promise<ServedRuntime> {
  const { child, output } = started(command, [...args, join(bundles, 'listen.mjs')]);
  const match = await waitFor(child, /kiln-conformance (\{.*\})/, output);
  const ports = JSON.parse(match[1]!) as Record<Mode, number>;
  return {
    name,
    bases: {
      strict: `http://127.0.0.1:${ports.strict}`,
      loose: `http://127.0.0.1:${ports.loose}`,
      problem: `http://127.0.0.1:${ports.problem}`,
    },
    output,
    stop: () => child.kill('SIGKILL'),
    terminate: () => child.kill('SIGTERM'),
    exited: new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal))),
  };
}

export interface ServedWorkers {
  /** The base URL of each worker's socket, by the name given. */
  readonly bases: Readonly<Record<string, string>>;
  output(): string;
  stop(): void;
}

/**
 * workerd serving ES modules (each `export default { fetch }`), one socket per module on an
 * ephemeral port of 127.0.0.1, which workerd reports on its control pipe.
 */
export async function serveWorkers(modules: Readonly<Record<string, string>>, cwd: string): Promise<ServedWorkers> {
  const names = Object.keys(modules);
  const worker = (name: string) => `(
  modules = [ (name = "worker", esModule = embed ${JSON.stringify(modules[name])}) ],
  # Node's APIs (Buffer, node:crypto) are on by default from this date (nodejs_compat before it).
  compatibilityDate = "2026-11-01",
)`;
  writeFileSync(
    join(cwd, 'workerd.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ ${names.map((name, i) => `(name = "${name}", worker = .worker${i})`).join(', ')} ],
  sockets = [ ${names.map((name) => `(name = "${name}", address = "127.0.0.1:0", http = (), service = "${name}")`).join(', ')} ],
);
${names.map((name, i) => `const worker${i} :Workerd.Worker = ${worker(name)};`).join('\n')}
`,
  );
  const { child, output } = started(runtimeBinary('workerd'), ['serve', 'workerd.capnp', '--control-fd=3'], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  let control = '';
  const ports: Record<string, number> = {};
  await new Promise<void>((resolve, reject) => {
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk) => {
      control += chunk;
      for (const line of control.split('\n')) {
        const event = line.startsWith('{') ? (JSON.parse(line) as { event?: string; socket?: string; port?: number }) : undefined;
        if (event?.event === 'listen' && event.socket !== undefined && event.port !== undefined) ports[event.socket] = event.port;
      }
      if (names.every((name) => ports[name] !== undefined)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`workerd exited with ${code} before serving:\n${output()}`)));
  });
  const bases = Object.fromEntries(names.map((name) => [name, `http://127.0.0.1:${ports[name]}`]));
  return { bases, output, stop: () => child.kill('SIGKILL') };
}

/** workerd serving the three worker modules of the conformance app. */
async function workerd(): Promise<ServedRuntime> {
  const served = await serveWorkers({ strict: 'worker-strict.mjs', loose: 'worker-loose.mjs', problem: 'worker-problem.mjs' }, bundles);
  return {
    name: 'workerd',
    bases: { strict: served.bases.strict!, loose: served.bases.loose!, problem: served.bases.problem! },
    output: served.output,
    stop: served.stop,
    terminate: () => {},
    exited: new Promise(() => {}),
  };
}

/** Starts the app on one runtime (installing the runtime first when it is missing). */
export function serveOn(name: RuntimeName): Promise<ServedRuntime> {
  switch (name) {
    case 'node20':
      return listening(name, process.execPath, []);
    case 'node26':
      return listening(name, runtimeBinary('node26'), []);
    case 'bun':
      return listening(name, runtimeBinary('bun'), []);
    case 'deno':
      return listening(name, runtimeBinary('deno'), ['run', '--allow-net', '--allow-env', '--allow-read', '--allow-sys']);
    case 'workerd':
      return workerd();
  }
}
