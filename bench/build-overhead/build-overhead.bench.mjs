// Build overhead: `tspc -p` on a generated Kiln project of 300 routes, with and without the
// @kiln/core/transformer plugin in its tsconfig (same sources; without the plugin TypeScript still
// type-checks and emits everything, and reports the parameter decorators it cannot place); and
// the same project bundled by esbuild with @kiln/core/esbuild: a full build (process spawn to
// exit, like tspc) and an incremental rebuild after one controller is edited (same esbuild
// context). Interleaved runs, medians; the overhead is the median of per-round CPU-time ratios,
// with a profile of both builds split into phases (build-phases.mjs).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { kilnApp } from '../generated-apps/kiln-app.mjs';
import { compileApp, writeApp } from '../generated-apps/write-app.mjs';
import { median } from '../report/statistics.mjs';
import { buildPhases, childrenCpuMs } from './build-phases.mjs';

const routeCount = 300;
const esbuildBuild = fileURLToPath(new URL('./esbuild-build.mjs', import.meta.url));
const run = promisify(execFile);

/** One esbuild build in its own process: wall time from spawn to exit, and what the script measured inside. */
async function esbuildRun(dir, mode) {
  const started = process.hrtime.bigint();
  const { stdout } = await run(process.execPath, [esbuildBuild, dir, mode, 'controller-0.ts'], { maxBuffer: 1 << 24 });
  return { processMs: Number(process.hrtime.bigint() - started) / 1e6, ...JSON.parse(stdout) };
}

/** A compile with its CPU time (`cpuMs`) beside its wall time. */
async function compileTimed(dir, options) {
  const before = childrenCpuMs();
  const result = await compileApp(dir, 'tspc', options);
  const after = childrenCpuMs();
  return { ...result, cpuMs: before === undefined ? undefined : after - before };
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
  const withCpu = [];
  const withoutCpu = [];
  const esbuildMs = [];
  const incremental = [];
  let withoutErrors = 0;
  for (let run = 0; run < runs; run++) {
    const without = await compileTimed(withoutDir, { allowErrors: true });
    const withPlugin = await compileTimed(withDir);
    withoutMs.push(without.milliseconds);
    withMs.push(withPlugin.milliseconds);
    withoutCpu.push(without.cpuMs);
    withCpu.push(withPlugin.cpuMs);
    esbuildMs.push((await esbuildRun(esbuildDir, 'full')).processMs);
    incremental.push(await esbuildRun(esbuildDir, 'incremental'));
  }
  withoutErrors = (await compileApp(withoutDir, 'tspc', { allowErrors: true })).errors;
  const result = { routeCount, runs, withMs: median(withMs), withoutMs: median(withoutMs) };
  result.wallRatio = median(withMs.map((ms, i) => ms / withoutMs[i]));
  if (withCpu.every((ms) => ms !== undefined)) {
    // The overhead is the median of the per-round ratios of CPU time: wall time on a shared machine measures the neighbours too.
    result.withCpuMs = median(withCpu);
    result.withoutCpuMs = median(withoutCpu);
    result.ratio = median(withCpu.map((ms, i) => ms / withoutCpu[i]));
  } else {
    result.ratio = result.wallRatio;
  }
  // Where the time goes (CPU profiles of both builds): the breakdown the overhead is cut against.
  result.phases = await buildPhases(withoutDir, withDir, Math.min(runs, 3));
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
    `build: ${routeCount} routes, tspc ${(result.withoutMs / 1000).toFixed(2)} s without the plugin, ${(result.withMs / 1000).toFixed(2)} s with it (wall ${result.wallRatio.toFixed(2)}x)` +
      (result.withCpuMs === undefined
        ? ''
        : `; CPU ${(result.withoutCpuMs / 1000).toFixed(2)} s and ${(result.withCpuMs / 1000).toFixed(2)} s: ${result.ratio.toFixed(2)}x`),
  );
  for (const { phase, withoutMs: plain, withMs: kiln } of result.phases) {
    log(`build phase: ${phase.padEnd(46)} ${plain.toFixed(0).padStart(6)} ms ${kiln.toFixed(0).padStart(6)} ms`);
  }
  log(
    `build: esbuild + @kiln/core/esbuild ${(result.esbuild.fullMs / 1000).toFixed(2)} s (${result.esbuild.vsTspc.toFixed(2)}x tspc with the plugin); ` +
      `rebuild after one controller edit ${result.esbuild.incrementalMs.toFixed(0)} ms (${(result.esbuild.incrementalRatio * 100).toFixed(0)}% of the first build in process, ${result.esbuild.firstBuildMs.toFixed(0)} ms)`,
  );
  return result;
}
