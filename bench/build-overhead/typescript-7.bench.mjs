// TypeScript 7 rows of the build part (docs/guide/typescript-7.md): the 300-route app's analysis
// with each checker of transformer/checker/ — TypeScript 6's program checker and TypeScript 7's
// native checker through typescript/unstable/sync, on the same TypeScript 6 syntax trees — and the
// esbuild rebuild after one controller edit in a TypeScript 7 project (typescript = 7.0,
// typescript-6 beside it), beside the same rebuild in a TypeScript 6 project. Interleaved runs, medians.
import { execFile } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { kilnApp } from '../generated-apps/kiln-app.mjs';
import { writeApp } from '../generated-apps/write-app.mjs';
import { median } from '../report/statistics.mjs';

const routeCount = 300;
const root = fileURLToPath(new URL('../../', import.meta.url));
const require = createRequire(join(root, 'package.json'));
const esbuildBuild = fileURLToPath(new URL('./esbuild-build.mjs', import.meta.url));
const run = promisify(execFile);

async function esbuildRun(dir, mode) {
  const { stdout } = await run(process.execPath, [esbuildBuild, dir, mode, 'controller-0.ts'], { maxBuffer: 1 << 24 });
  return JSON.parse(stdout);
}

/** The app as a TypeScript 7 project: its own node_modules with typescript (7.0) and typescript-6. */
export async function typeScript7App(files) {
  const dir = await writeApp('build-typescript-7', files);
  await mkdir(join(dir, 'node_modules'), { recursive: true });
  await symlink(join(root, 'node_modules', 'typescript-7'), join(dir, 'node_modules', 'typescript'), 'dir');
  await symlink(join(root, 'node_modules', 'typescript'), join(dir, 'node_modules', 'typescript-6'), 'dir');
  return dir;
}

/** One round of both analyses on a fresh program: milliseconds of each step. */
export async function analyseBoth(dir) {
  const ts = require('typescript');
  const dist = (path) => require(join(root, 'dist', 'transformer', path));
  const { analyseProgram } = dist('analyse/analyse-program.cjs');
  const { analyseResponses } = dist('analyse/return-type.cjs');
  const { openTypeScript7Checker } = dist('checker/typescript-7-checker.cjs');
  const sync = await import(join(root, 'node_modules', 'typescript-7', 'dist', 'api', 'sync', 'api.js'));
  const ast = await import(join(root, 'node_modules', 'typescript-7', 'dist', 'ast', 'index.js'));
  const tsconfig = join(dir, 'tsconfig.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  let at = performance.now();
  const lap = () => {
    const now = performance.now();
    const ms = now - at;
    at = now;
    return ms;
  };
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  const programMs = lap();
  const analyse = (checker) => {
    const tk = { ts, program, checker };
    const model = analyseProgram(tk);
    analyseResponses(tk, undefined);
    return model;
  };
  const six = analyse(program.getTypeChecker());
  const analysis6Ms = lap();
  const opened = openTypeScript7Checker(ts, program, sync, ast, tsconfig);
  const open7Ms = lap();
  let seven;
  try {
    seven = analyse(opened.checker);
  } finally {
    opened.close();
  }
  const analysis7Ms = lap();
  if (seven.files.size !== six.files.size || seven.diagnostics.length !== six.diagnostics.length) {
    throw new Error(
      `the checkers disagree: ${six.files.size}/${seven.files.size} files, ${six.diagnostics.length}/${seven.diagnostics.length} diagnostics`,
    );
  }
  return { programMs, analysis6Ms, open7Ms, analysis7Ms };
}

export async function runTypeScript7Overhead({ runs = 5, log = console.log } = {}) {
  const files = kilnApp(routeCount, { transformer: true });
  const six = await writeApp('build-typescript-6', files);
  const seven = await typeScript7App(files);
  await esbuildRun(seven, 'full'); // once untimed: file cache, and proves the TypeScript 7 project builds
  const rounds = [];
  const rebuild6 = [];
  const rebuild7 = [];
  for (let round = 0; round < runs; round++) {
    rounds.push(await analyseBoth(seven));
    rebuild7.push(await esbuildRun(seven, 'incremental'));
    rebuild6.push(await esbuildRun(six, 'incremental'));
  }
  const pick = (key) => median(rounds.map((r) => r[key]));
  const result = {
    routeCount,
    runs,
    analysis: {
      typescript6ProgramMs: pick('programMs'),
      typescript6AnalysisMs: pick('analysis6Ms'),
      typescript7OpenMs: pick('open7Ms'),
      typescript7AnalysisMs: pick('analysis7Ms'),
      /** Per round: TypeScript 7's analysis (queries only) over TypeScript 6's, on the same trees. */
      analysisRatio: median(rounds.map((r) => r.analysis7Ms / r.analysis6Ms)),
    },
    esbuild: {
      typescript7FirstBuildMs: median(rebuild7.map((r) => r.fullMs)),
      typescript7RebuildMs: median(rebuild7.map((r) => r.incrementalMs)),
      typescript7RebuildCpuMs: median(rebuild7.map((r) => r.incrementalCpuMs)),
      /** esbuild's service and tsgo (esbuild-build.mjs, from /proc; NaN elsewhere). */
      typescript7RebuildChildrenCpuMs: median(rebuild7.map((r) => r.incrementalChildrenCpuMs)),
      typescript6FirstBuildMs: median(rebuild6.map((r) => r.fullMs)),
      typescript6RebuildMs: median(rebuild6.map((r) => r.incrementalMs)),
      typescript6RebuildCpuMs: median(rebuild6.map((r) => r.incrementalCpuMs)),
      typescript6RebuildChildrenCpuMs: median(rebuild6.map((r) => r.incrementalChildrenCpuMs)),
    },
  };
  const a = result.analysis;
  log(
    `build (TypeScript 7): ${routeCount} routes, analysis with TypeScript 6's checker ${a.typescript6AnalysisMs.toFixed(0)} ms (program ${a.typescript6ProgramMs.toFixed(0)} ms), ` +
      `with TypeScript 7's ${a.typescript7AnalysisMs.toFixed(0)} ms (opening tsgo and the project ${a.typescript7OpenMs.toFixed(0)} ms); per-round ratio ${a.analysisRatio.toFixed(2)}`,
  );
  const e = result.esbuild;
  log(
    `build (TypeScript 7): esbuild rebuild after one controller edit ${e.typescript7RebuildMs.toFixed(0)} ms (CPU ${e.typescript7RebuildCpuMs.toFixed(0)} ms, + ${e.typescript7RebuildChildrenCpuMs} ms in esbuild and tsgo) in a TypeScript 7 project, ` +
      `${e.typescript6RebuildMs.toFixed(0)} ms (CPU ${e.typescript6RebuildCpuMs.toFixed(0)} ms, + ${e.typescript6RebuildChildrenCpuMs} ms in esbuild) in a TypeScript 6 one; first builds ${e.typescript7FirstBuildMs.toFixed(0)} / ${e.typescript6FirstBuildMs.toFixed(0)} ms`,
  );
  return result;
}
