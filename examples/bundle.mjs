// `npm run bundle`: the example as one deployable ES module per kind of runtime. esbuild with
// @kiln/core/esbuild compiles the controllers (binders and typia validators, from the same analysis
// as tspc) and bundles them with @kiln/core's runtime and typia's helpers:
// - dist-bundle/server.mjs listens with app.listen(): `node`, `bun` or `deno run` it;
// - dist-bundle/worker.mjs exports `{ fetch }` for workerd (Cloudflare Workers), with the OpenAPI
//   document the tspc build wrote (openapi.json) bundled in.
// `npm run build` has already built @kiln/core. `node bundle.mjs <dir>` writes into examples/<dir>/
// instead (the benchmarks do, beside the tests' dist-bundle/).
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

const out = join(example, process.argv[2] ?? 'dist-bundle');
const started = performance.now();
const common = {
  bundle: true,
  format: 'esm',
  sourcemap: true,
  plugins: [kiln({ tsconfig: join(example, 'tsconfig.json') })],
  logLevel: 'warning',
};
await build({
  ...common,
  entryPoints: [join(example, 'src', 'main.ts')],
  outfile: join(out, 'server.mjs'),
  platform: 'node',
  // The OpenTelemetry SDK (src/tracing.ts, loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set) is
  // imported from node_modules at run time: its CommonJS modules require Node built-ins.
  external: ['@opentelemetry/*'],
  target: 'node20',
});
// No runtime's built-ins assumed: Kiln's core imports none.
await build({
  ...common,
  entryPoints: [join(example, 'worker', 'worker.ts')],
  outfile: join(out, 'worker.mjs'),
  platform: 'neutral',
  mainFields: ['module', 'main'],
  target: 'es2022',
});
console.log(
  `Bundled examples/ into dist-bundle/server.mjs and dist-bundle/worker.mjs with esbuild + @kiln/core/esbuild in ${Math.round(performance.now() - started)} ms`,
);
