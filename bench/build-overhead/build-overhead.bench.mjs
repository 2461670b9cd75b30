// Build overhead: `tspc -p` on a generated Kiln project of 300 routes, with and without the
// @kiln/core/transformer plugin in its tsconfig (same sources; without the plugin TypeScript still
// type-checks and emits everything, and reports the parameter decorators it cannot place); and
// the same project bundled by esbuild with @kiln/core/esbuild: a full build (process spawn to
// exit, like tspc) and an incremental rebuild after one controller is edited (same esbuild
// context). Interleaved runs, medians.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { kilnApp } from '../generated-apps/kiln-app.mjs';
import { compileApp, writeApp } from '../generated-apps/write-app.mjs';
import { median } from '../report/statistics.mjs';

const routeCount = 300;
const esbuildBuild = fileURLToPath(new URL('./esbuild-build.mjs', import.meta.url));
const run = promisify(execFile);

/** One esbuild build in its own process: wall time from spawn to exit, and what the script measured inside. */
async function esbuildRun(dir, mode) {
  const started = process.hrtime.bigint();
  const { stdout } = await run(process.execPath, [esbuildBuild, dir, mode, 'controller-0.ts'], { maxBuffer: 1 << 24 });
  return { processMs: Number(process.hrtime.bigint() - started) / 1e6, ...JSON.parse(stdout) };
}

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
  const esbuildDir = await writeApp('build-esbuild-plugin', files);
  await compileApp(withDir, 'tspc'); // once untimed: fills the OS file cache, proves the project compiles
  await esbuildRun(esbuildDir, 'full');
  const withMs = [];
  const withoutMs = [];
  const esbuildMs = [];
  const incremental = [];
  let withoutErrors = 0;
  for (let run = 0; run < runs; run++) {
    withoutMs.push((await compileApp(withoutDir, 'tspc', { allowErrors: true })).milliseconds);
    withMs.push((await compileApp(withDir, 'tspc')).milliseconds);
    esbuildMs.push((await esbuildRun(esbuildDir, 'full')).processMs);
    incremental.push(await esbuildRun(esbuildDir, 'incremental'));
  }
  withoutErrors = (await compileApp(withoutDir, 'tspc', { allowErrors: true })).errors;
  const result = { routeCount, runs, withMs: median(withMs), withoutMs: median(withoutMs) };
  result.ratio = result.withMs / result.withoutMs;
  result.esbuild = {
    fullMs: median(esbuildMs),
    // Inside the process: the first build of the context (language service, analysis, bundle) and the rebuild after one edit.
    firstBuildMs: median(incremental.map((r) => r.fullMs)),
    incrementalMs: median(incremental.map((r) => r.incrementalMs)),
  };
  result.esbuild.vsTspc = result.esbuild.fullMs / result.withMs;
  result.esbuild.incrementalRatio = result.esbuild.incrementalMs / result.esbuild.firstBuildMs;
  result.note = `Without the plugin, tspc reported ${withoutErrors} errors (parameter decorators) and emitted anyway.`;
  log(
    `build: ${routeCount} routes, tspc ${(result.withoutMs / 1000).toFixed(2)} s without the plugin, ${(result.withMs / 1000).toFixed(2)} s with it: ${result.ratio.toFixed(2)}x`,
  );
  log(
    `build: esbuild + @kiln/core/esbuild ${(result.esbuild.fullMs / 1000).toFixed(2)} s (${result.esbuild.vsTspc.toFixed(2)}x tspc with the plugin); ` +
      `rebuild after one controller edit ${result.esbuild.incrementalMs.toFixed(0)} ms (${(result.esbuild.incrementalRatio * 100).toFixed(0)}% of the first build in process, ${result.esbuild.firstBuildMs.toFixed(0)} ms)`,
  );
  return result;
}
