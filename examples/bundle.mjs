// `npm run bundle`: the example as one deployable ES module. esbuild with @kiln/core/esbuild
// compiles the controllers (binders and typia validators, from the same analysis as tspc) and
// bundles them with @kiln/core's runtime and typia's helpers into dist-bundle/server.mjs, which
// needs nothing but Node: `node dist-bundle/server.mjs`. `npm run build` has already built @kiln/core.
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const example = fileURLToPath(new URL('.', import.meta.url));

// What `npm install` does for a consumer (`"@kiln/core": "file:.."`): node_modules/@kiln/core is the package.
const linked = join(example, 'node_modules', '@kiln', 'core');
if (!existsSync(linked)) {
  mkdirSync(join(example, 'node_modules', '@kiln'), { recursive: true });
  symlinkSync(join(example, '..'), linked, 'dir');
}

const { build } = await import('esbuild');
const { default: kiln } = await import('@kiln/core/esbuild');

const started = performance.now();
await build({
  entryPoints: [join(example, 'src', 'main.ts')],
  outfile: join(example, 'dist-bundle', 'server.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  plugins: [kiln({ tsconfig: join(example, 'tsconfig.json') })],
  logLevel: 'warning',
});
console.log(
  `Bundled examples/ into dist-bundle/server.mjs with esbuild + @kiln/core/esbuild in ${Math.round(performance.now() - started)} ms`,
);
