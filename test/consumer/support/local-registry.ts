// A registry of the test's own on 127.0.0.1 (verdaccio, a development dependency), so that the
// consumer suites install @kiln/core and @kiln/rate-limit with `npm install @kiln/core`, as users
// will once they are published: step 1's tarballs are published to it, and an npm user config
// sends the @kiln scope there (every other package comes from the usual registry, or npm's cache).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { npmEnvironment, runCommand } from './run-command.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

export interface LocalRegistry {
  readonly url: string;
  /** The environment that installs the @kiln scope from this registry. */
  readonly env: NodeJS.ProcessEnv;
  /** Publishes a tarball as `npm publish` does; its output on failure. */
  publish(tarball: string): Promise<void>;
  stop(): Promise<void>;
}

/** Starts verdaccio in `dir` (storage, config, npm user config) on a free loopback port. */
export async function startLocalRegistry(dir: string): Promise<LocalRegistry> {
  mkdirSync(join(dir, 'storage'), { recursive: true });
  const config = join(dir, 'verdaccio.yaml');
  // No uplink: the registry holds only what the test publishes to it; anyone may read and publish.
  writeFileSync(
    config,
    [
      `storage: ${join(dir, 'storage')}`,
      'auth:',
      '  htpasswd:',
      `    file: ${join(dir, 'htpasswd')}`,
      'packages:',
      "  '@kiln/*':",
      '    access: $all',
      '    publish: $all',
      "  '**':",
      '    access: $all',
      '    publish: $authenticated',
      'log: { type: stdout, format: json, level: warn }',
      '',
    ].join('\n'),
  );
  const bin = createRequire(join(root, 'package.json')).resolve('verdaccio/bin/verdaccio');
  // verdaccio reports the port it was given, not the one a `:0` got: a port free a moment ago.
  const port = await freePort();
  const child = spawn(process.execPath, [bin, '--config', config, '--listen', `127.0.0.1:${port}`], { cwd: dir, env: npmEnvironment });
  const url = await listeningUrl(child, port);
  const userConfig = join(dir, 'npmrc');
  // The scope's registry, and a token npm requires before it publishes (this registry checks none).
  writeFileSync(userConfig, `@kiln:registry=${url}\n//${new URL(url).host}/:_authToken=kiln-consumer-test\n`);
  // From now on, every npm command of the suite (support/run-command.ts) takes the scope from here.
  npmEnvironment.npm_config_userconfig = userConfig;
  const env = npmEnvironment;
  return {
    url,
    env,
    async publish(tarball) {
      const published = await runCommand('npm', ['publish', tarball, '--registry', url, '--ignore-scripts'], dir, env);
      if (published.exitCode !== 0) throw new Error(`npm publish ${tarball} failed:\n${published.output}`);
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The address verdaccio prints once it listens ("http address - http://127.0.0.1:PORT/"). */
function listeningUrl(child: ChildProcess, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const read = (chunk: Buffer) => {
      output += chunk;
      if (!output.includes(`http address - http://127.0.0.1:${port}/`)) return;
      child.stdout!.off('data', read);
      resolve(`http://127.0.0.1:${port}/`);
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => reject(new Error(`verdaccio exited (${code}) before it listened:\n${output}`)));
  });
}
