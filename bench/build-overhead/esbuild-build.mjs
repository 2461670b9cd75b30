// One esbuild build of a generated Kiln app with @kiln/core/esbuild, in its own process (as a
// user's build script runs): `node esbuild-build.mjs <appDir> full` bundles once;
// `... incremental <controller>` bundles, edits that controller (a handler's return value), and
// rebuilds through the same esbuild context. Prints the timings as JSON. KILN_ESBUILD_PLUGIN (a
// path to another build's dist/transformer/bundler/esbuild.mjs) compares two builds of Kiln
// (rebuild-compare.mjs).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { context } from 'esbuild';

const plugin = process.env.KILN_ESBUILD_PLUGIN;
const { default: kiln } = await import(plugin ? pathToFileURL(plugin).href : '@kiln/core/esbuild');

const [appDir, mode, controller] = process.argv.slice(2);
const options = {
  entryPoints: [join(appDir, 'src', 'main.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: join(appDir, 'bundle', 'server.mjs'),
  packages: 'bundle',
  logLevel: 'silent',
  plugins: [kiln({ tsconfig: join(appDir, 'tsconfig.json') })],
};

/**
 * CPU milliseconds of this process's children so far (esbuild's service, TypeScript 7's tsgo),
 * from /proc (Linux; undefined elsewhere): a rebuild's work outside this process. Ticks of 10 ms.
 */
function childrenCpuMs() {
  try {
    let ticks = 0;
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      let stat;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue; // ended meanwhile
      }
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === process.pid) ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks * 10;
  } catch {
    return undefined;
  }
}

const started = performance.now();
const build = await context(options);
const first = await build.rebuild();
const fullMs = performance.now() - started;
const fullCpu = process.cpuUsage();
if (first.errors.length > 0) throw new Error(first.errors.map((e) => e.text).join('\n'));
const result = { fullMs, fullCpuMs: (fullCpu.user + fullCpu.system) / 1000 };
if (mode === 'incremental') {
  const file = join(appDir, 'src', controller);
  const source = readFileSync(file, 'utf8');
  writeFileSync(file, source.replace('return { route: ', 'return { edited: true, route: '));
  // Before the timed span: reading /proc costs a few ms.
  const childrenBefore = childrenCpuMs();
  const editedAt = performance.now();
  const cpuBefore = process.cpuUsage();
  const second = await build.rebuild();
  result.incrementalMs = performance.now() - editedAt;
  // This process's CPU time for the rebuild (esbuild's own service process not counted): less disturbed by other load.
  const cpu = process.cpuUsage(cpuBefore);
  result.incrementalCpuMs = (cpu.user + cpu.system) / 1000;
  // The same rebuild's CPU time in esbuild's service and tsgo (a TypeScript 7 project's checker).
  const childrenAfter = childrenCpuMs();
  if (childrenBefore !== undefined && childrenAfter !== undefined) result.incrementalChildrenCpuMs = childrenAfter - childrenBefore;
  writeFileSync(file, source);
  if (second.errors.length > 0) throw new Error(second.errors.map((e) => e.text).join('\n'));
  if (!readFileSync(options.outfile, 'utf8').includes('edited: true')) throw new Error('the rebuild did not pick up the edit');
}
await build.dispose();
console.log(JSON.stringify(result));
