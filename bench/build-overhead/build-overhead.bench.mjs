// Build overhead: `tspc -p` on a generated Kiln project of 300 routes, with and without the
// @kiln/core/transformer plugin in its tsconfig (same sources; without the plugin TypeScript still
// type-checks and emits everything, and reports the parameter decorators it cannot place).
// Interleaved runs, medians.
import { kilnApp } from '../generated-apps/kiln-app.mjs';
import { compileApp, writeApp } from '../generated-apps/write-app.mjs';
import { median } from '../report/statistics.mjs';

const routeCount = 300;

function withoutPlugin(files) {
  const tsconfig = JSON.parse(files['tsconfig.json']);
  tsconfig.compilerOptions.plugins = [];
  return { ...files, 'tsconfig.json': JSON.stringify(tsconfig, null, 2) };
}

export async function runBuildOverhead({ runs = 5, transformer = false, log = console.log } = {}) {
  if (!transformer) return { pending: '@kiln/core/transformer is not available yet; rerun with `npm run bench -- build` once it lands.' };
  const files = kilnApp(routeCount, { transformer: true });
  const withDir = await writeApp('build-with-plugin', files);
  const withoutDir = await writeApp('build-without-plugin', withoutPlugin(files));
  await compileApp(withDir, 'tspc'); // once untimed: fills the OS file cache, proves the project compiles
  const withMs = [];
  const withoutMs = [];
  let withoutErrors = 0;
  for (let run = 0; run < runs; run++) {
    withoutMs.push((await compileApp(withoutDir, 'tspc', { allowErrors: true })).milliseconds);
    withMs.push((await compileApp(withDir, 'tspc')).milliseconds);
  }
  withoutErrors = (await compileApp(withoutDir, 'tspc', { allowErrors: true })).errors;
  const result = { routeCount, runs, withMs: median(withMs), withoutMs: median(withoutMs) };
  result.ratio = result.withMs / result.withoutMs;
  result.note = `Without the plugin, tspc reported ${withoutErrors} errors (parameter decorators) and emitted anyway.`;
  log(`build: ${routeCount} routes, tspc ${(result.withoutMs / 1000).toFixed(2)} s without the plugin, ${(result.withMs / 1000).toFixed(2)} s with it: ${result.ratio.toFixed(2)}x`);
  return result;
}
