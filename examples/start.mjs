// `npm start`: builds this example as a consumer builds a Kiln app (tspc + kiln/transformer) and
// serves it on port 3000. `npm run build` has already built the kiln package itself.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const example = fileURLToPath(new URL('.', import.meta.url));
const root = join(example, '..');

// What `npm install` does for a consumer (`"kiln": "file:.."`): node_modules/kiln is the package.
const linked = join(example, 'node_modules', 'kiln');
if (!existsSync(linked)) {
  mkdirSync(join(example, 'node_modules'), { recursive: true });
  symlinkSync(root, linked, 'dir');
}

const started = performance.now();
const build = spawnSync(join(root, 'node_modules', '.bin', 'tspc'), ['-p', join(example, 'tsconfig.json')], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
console.log(`Built examples/ with tspc + kiln/transformer in ${Math.round(performance.now() - started)} ms`);

await import(new URL('./dist/main.js', import.meta.url).href);
