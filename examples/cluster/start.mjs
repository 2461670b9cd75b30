// Builds the node:cluster example with tspc + @kiln/core/transformer, then starts it (see src/cluster.ts).
// `npm run build` at the repository root has already built @kiln/core and @kiln/rate-limit.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..', '..');

// What `npm install` does for a consumer: examples/node_modules/@kiln/core is the package.
const linked = join(root, 'examples', 'node_modules', '@kiln', 'core');
if (!existsSync(linked)) {
  mkdirSync(join(root, 'examples', 'node_modules', '@kiln'), { recursive: true });
  symlinkSync(root, linked, 'dir');
}

const build = spawnSync(join(root, 'node_modules', '.bin', 'tspc'), ['-p', join(here, 'tsconfig.json')], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
if (process.argv.includes('--build-only')) process.exit(0);
await import(new URL('./dist/cluster.js', import.meta.url).href);
