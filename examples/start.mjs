// `npm start`: builds this example as a consumer builds a Kiln app (tspc + @kiln/core/transformer) and
// serves it on port 3000. `npm run build` has already built @kiln/core itself.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const example = fileURLToPath(new URL('.', import.meta.url));
const root = join(example, '..');

// What `npm install` does for a consumer (`"@kiln/core": "file:.."`): node_modules/@kiln/core is the package.
const linked = join(example, 'node_modules', '@kiln/core');
if (!existsSync(linked)) {
  mkdirSync(join(example, 'node_modules', '@kiln'), { recursive: true });
  symlinkSync(root, linked, 'dir');
}

const started = performance.now();
const build = spawnSync(join(root, 'node_modules', '.bin', 'tspc'), ['-p', join(example, 'tsconfig.json')], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
console.log(`Built examples/ with tspc + @kiln/core/transformer in ${Math.round(performance.now() - started)} ms`);

await import(new URL('./dist/main.js', import.meta.url).href);
