// The esbuild rebuild after one controller edit of the 300-route app, compared between two builds
// of Kiln in one run (find-my-way's compare-branches, for the build): `node
// bench/build-overhead/rebuild-compare.mjs <before-dist> <after-dist> [rounds]`, each a copy of a
// build's dist/ inside the repository, so that its imports (unplugin, typescript) resolve from
// node_modules: e.g. `cp -r dist bench/build/before-dist` on the base commit, then `npm run build`
// and `cp -r dist bench/build/after-dist`.
// Each round runs, in an order rotated per round, both builds on the TypeScript 7 project (TS 7's
// checker) and on the TypeScript 6 one, one process each (esbuild-build.mjs: first build, one
// edit, rebuild), and the analysis of the 300 routes with each checker (typescript-7.bench.mjs,
// current dist). Prints medians, the load average before and after, and the raw rounds as JSON.
import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { kilnApp } from '../generated-apps/kiln-app.mjs';
import { writeApp } from '../generated-apps/write-app.mjs';
import { median } from '../report/statistics.mjs';
import { analyseBoth, typeScript7App } from './typescript-7.bench.mjs';

const [beforeDist, afterDist, roundsArg = '5'] = process.argv.slice(2);
if (afterDist === undefined) throw new Error('usage: node rebuild-compare.mjs <before-dist> <after-dist> [rounds]');
const rounds = Number(roundsArg);
const esbuildBuild = fileURLToPath(new URL('./esbuild-build.mjs', import.meta.url));
const run = promisify(execFile);
const builds = { before: resolve(beforeDist), after: resolve(afterDist) };

async function rebuild(dir, dist) {
  const env = { ...process.env, KILN_ESBUILD_PLUGIN: join(dist, 'transformer', 'bundler', 'esbuild.mjs') };
  const { stdout } = await run(process.execPath, [esbuildBuild, dir, 'incremental', 'controller-0.ts'], { env, maxBuffer: 1 << 24 });
  return JSON.parse(stdout);
}

const files = kilnApp(300, { transformer: true });
const apps = { typescript6: await writeApp('build-typescript-6', files), typescript7: await typeScript7App(files) };
const loadBefore = loadavg();
const runs = [];
for (const [build, dist] of Object.entries(builds))
  for (const [project, dir] of Object.entries(apps)) runs.push({ build, project, dist, dir });
const samples = runs.map(() => []);
const analyses = [];
for (let round = 0; round < rounds; round++) {
  analyses.push(await analyseBoth(apps.typescript7));
  console.error(`round ${round + 1}: analysis ${JSON.stringify(analyses.at(-1))}`);
  for (let k = 0; k < runs.length; k++) {
    const i = (k + round) % runs.length;
    const sample = await rebuild(runs[i].dir, runs[i].dist);
    samples[i].push(sample);
    console.error(`round ${round + 1}: ${runs[i].build} ${runs[i].project} ${JSON.stringify(sample)} load ${loadavg()[0].toFixed(1)}`);
  }
}
const loadAfter = loadavg();
const rows = runs.map((r, i) => ({
  build: r.build,
  project: r.project,
  rebuildMs: median(samples[i].map((s) => s.incrementalMs)),
  rebuildCpuMs: median(samples[i].map((s) => s.incrementalCpuMs)),
  /** esbuild's service and tsgo, from /proc (Linux). */
  rebuildChildrenCpuMs: median(samples[i].map((s) => s.incrementalChildrenCpuMs)),
  firstBuildMs: median(samples[i].map((s) => s.fullMs)),
  samples: samples[i].map((s) => [Math.round(s.incrementalMs), Math.round(s.incrementalCpuMs), s.incrementalChildrenCpuMs]),
}));
const pick = (key) => median(analyses.map((a) => a[key]));
const analysis = {
  typescript6ProgramMs: pick('programMs'),
  typescript6AnalysisMs: pick('analysis6Ms'),
  typescript7OpenMs: pick('open7Ms'),
  typescript7AnalysisMs: pick('analysis7Ms'),
  analysisRatio: median(analyses.map((a) => a.analysis7Ms / a.analysis6Ms)),
};
for (const r of rows) {
  console.log(
    `${r.build.padEnd(6)} ${r.project}: rebuild ${r.rebuildMs.toFixed(0)} ms wall, ${r.rebuildCpuMs.toFixed(0)} ms CPU (+ ${r.rebuildChildrenCpuMs} ms in esbuild and tsgo); first build ${r.firstBuildMs.toFixed(0)} ms; [wall, CPU, children's CPU] ${JSON.stringify(r.samples)}`,
  );
}
console.log(
  `analysis of 300 routes: TypeScript 6's checker ${analysis.typescript6AnalysisMs.toFixed(0)} ms (program ${analysis.typescript6ProgramMs.toFixed(0)} ms), ` +
    `TypeScript 7's ${analysis.typescript7AnalysisMs.toFixed(0)} ms (opening tsgo and the project ${analysis.typescript7OpenMs.toFixed(0)} ms); per-round ratio ${analysis.analysisRatio.toFixed(2)}`,
);
console.log(
  `load average (1, 5, 15 min): before ${loadBefore.map((l) => l.toFixed(1)).join(', ')}; after ${loadAfter.map((l) => l.toFixed(1)).join(', ')}`,
);
console.log(JSON.stringify({ rounds, loadBefore, loadAfter, rows, analysis, analyses }));
