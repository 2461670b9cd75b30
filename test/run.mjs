// Brings the packages and the test projects up to date (incremental-build.mjs: only what changed,
// only what the chosen suites need; --no-build skips it), runs each compiled uvu suite in its own
// process, and ends with one plain "N passed, N failed" line counted from the suites' own totals.
// Exit 1 on any failure.
// `node test/run.mjs [part ...] [--node=22,24,26]`: the suites whose path contains a part (all by
// default) on this Node, then the version-sensitive ones among them again on the other Node
// versions (installed from the npm registry into .cache/runtimes/ when missing): as the table below
// says for a full run, on every version --node names for a filtered one (--node= for none).
// `--workers=N` runs N suites at a time (2 by default).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { IncrementalBuild } from './incremental-build.mjs';
import { runtimeBinary } from './runtimes/install-runtimes.mjs';

const runStarted = performance.now();
const root = fileURLToPath(new URL('..', import.meta.url));
const buildRoot = join(root, 'build');
const nodeOption = process.argv.slice(2).find((arg) => arg.startsWith('--node='));
const workersOption = process.argv.slice(2).find((arg) => arg.startsWith('--workers='));
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const noBuild = process.argv.includes('--no-build');
// What depends on the Node version, and where a full run runs it again (the first matching entry
// wins). Every line gets the HTTP stack (hardening: parser, limits, timeouts, close; server:
// requests, responses, web streams) and the example's esbuild bundle. The build tools (tspc,
// esbuild, vitest, watch, the register hook, TypeScript 7) run again on 22, the consumer's whole
// setup (install, tspc, node --test, vitest, the bundle, npm start, tsserver) on 22 and 26, which
// builds with tspc, vitest and esbuild on 26 too. Each more (build tools on 24 or 26, the consumer
// on 24) costs 55 to 125 s of CPU, and this matrix already costs about 1.3 times main's full run:
// docs/guide/runtimes.md, "What is tested on each runtime", has the measurements. The TypeScript 7
// consumer runs on 22 (where the register hook must import TypeScript 7's API itself) and 26.
const versionSensitive = {
  'test/hardening/': ['22', '24', '26'],
  'test/server/': ['22', '24', '26'],
  'test/build-tools/example-bundle': ['22', '24', '26'],
  'test/build-tools/': ['22'],
  'test/consumer/typescript-7-consumer': ['22', '26'],
  'test/consumer/': ['22', '26'],
};
// The longest suites start first, so that the workers end together rather than one waiting on them.
const slowFirst = ['test/consumer/', 'test/build-tools/', 'test/deploy/', 'test/transformer/consumer-setup'];
const otherNodes = (nodeOption?.slice('--node='.length) ?? (only.length === 0 ? '22,24,26' : ''))
  .split(',')
  .filter((version) => version !== '');

function findFiles(dir, test) {
  if (!existsSync(dir)) return [];
  const found = [];
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'fixtures') continue;
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) found.push(...findFiles(full, test));
    else if (test(entry)) found.push(full);
  }
  return found;
}

// Test projects: every tsconfig.json under test/ and packages/*/test/, fixtures excepted.
const projectDirs = [join(root, 'test')];
for (const pkg of existsSync(join(root, 'packages')) ? readdirSync(join(root, 'packages')) : []) {
  projectDirs.push(join(root, 'packages', pkg, 'test'));
}
const projectConfigs = projectDirs.flatMap((dir) => findFiles(dir, (name) => name === 'tsconfig.json'));
// A filter matches a suite by its path inside build/ (a checkout named runtimes/ would otherwise match every suite).
const matches = (builtFile) => only.length === 0 || only.some((part) => relative(buildRoot, builtFile).includes(part));

let buildFailures = 0; // in a filtered run, the projects that failed to build (their suites that did not compile do not run)
if (noBuild) {
  if (!existsSync(buildRoot)) {
    console.log('--no-build: build/ does not exist yet; run once without --no-build.');
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
} else {
  const build = new IncrementalBuild(root, buildRoot);
  const log = (line) => console.log(`build: ${line}`);
  const buildFailed = (what) => {
    console.log(`\nBuilding ${what} failed.`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  };
  if (!build.buildPackages(log)) buildFailed('the packages (npm run build)');
  const projects = projectConfigs.map((config) => build.readProject(config));
  const uncompiled = build.uncompiledFiles(projectDirs, projects);
  for (const { file, projects: count } of uncompiled) {
    console.log(
      `${file} is compiled by ${count === 0 ? 'no test project: add it to an include of a tsconfig.json (test/tsconfig.json takes every folder of test/)' : `${count} test projects: exclude it from all but one`}.`,
    );
  }
  if (uncompiled.length > 0) buildFailed('the test projects');
  const selected = projects.flatMap((project) => project.suites.filter((file) => matches(project.outputOf(file))));
  for (const project of projects) {
    const wanted = only.length === 0 ? undefined : project.suites.filter((file) => selected.includes(file));
    if (wanted?.length === 0 && project.suites.length > 0) continue; // no suite of this project runs
    // A project without suites is an app the suites beside it serve (test/runtimes/conformance-app).
    const servedFrom = dirname(dirname(project.configPath));
    if (project.suites.length === 0 && only.length > 0 && !selected.some((file) => file.startsWith(`${servedFrom}/`))) continue;
    if (build.buildProject(project, wanted, log)) continue;
    buildFailures++;
    if (only.length > 0) console.log(`\nBuilding ${relative(root, project.configPath)} failed.`);
    else buildFailed(relative(root, project.configPath)); // a filtered run goes on with what did build
  }
  build.removeOrphanSuites(projects);
  log(`done in ${((performance.now() - runStarted) / 1000).toFixed(1)} s`);
}

let suites = findFiles(buildRoot, (name) => name.endsWith('.test.js')).sort();
if (only.length > 0) suites = suites.filter(matches);

/** User + system seconds of the waited-for children (and theirs), from /proc; undefined elsewhere. */
function childCpuSeconds() {
  try {
    // The fields after the command's closing parenthesis: cutime and cstime are the 14th and 15th.
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100; // clock ticks: 100 a second on Linux
  } catch {
    return undefined;
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes start with ESC, and this strips them
const ansi = /\u001b\[[0-9;]*m/g;
function runSuite({ file, node, label, env }) {
  const started = performance.now();
  return new Promise((resolve) => {
    // This Node first on PATH, so that what a suite starts (npm, tspc, vitest) runs on it too.
    const path = `${dirname(node)}${delimiter}${process.env.PATH ?? ''}`;
    const child = spawn(node, [file], { cwd: root, env: { ...process.env, ...env, PATH: path, NO_COLOR: '1', FORCE_COLOR: '0' } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    // A hang guard, not a time limit: the consumer suite (npm pack, npm install, tspc) needs minutes on a loaded machine.
    const timer = setTimeout(() => child.kill('SIGKILL'), 600_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const text = output.replace(ansi, '');
      const number = (label) => Number(text.match(new RegExp(`${label}:\\s+(\\d+)`))?.[1] ?? 0);
      const total = number('Total');
      const passed = number('Passed');
      const skipped = number('Skipped');
      let failed = total - passed;
      if ((code !== 0 || signal) && failed === 0) failed = 1; // crashed, timed out, or failed outside a test
      resolve({ file, label, text, passed, failed, skipped, seconds: (performance.now() - started) / 1000 });
    });
  });
}

const runs = suites.map((file) => ({ file, node: process.execPath, label: relative(buildRoot, file) }));
// Step 1 of the consumer setup (npm pack in a copy of the working tree) makes the same tarballs on
// every Node: packed once, as a job of its own, and installed by every consumer suite on every Node
// (test/consumer/support/packed-tarballs.ts); those suites wait for it, the others do not.
const isConsumer = (run) => relative(buildRoot, run.file).startsWith('test/consumer/');
let tarballs; // the folder of the packed tarballs, once packed
const packJob = runs.some(isConsumer) ? { label: 'npm pack (consumer step 1, once for every Node)', pack: true } : undefined;
for (const version of otherNodes) {
  const node = runtimeBinary(`node${version}`);
  for (const file of suites) {
    const name = relative(buildRoot, file);
    const versions = Object.entries(versionSensitive).find(([part]) => name.startsWith(part))?.[1];
    const chosen = versions !== undefined && (nodeOption !== undefined || versions.includes(version));
    if (chosen) runs.push({ file, node, label: `[node ${version}] ${name}` });
  }
}

async function packTarballs({ label }) {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'kiln-consumer-pack-'));
  const { packWorkingTree } = await import(pathToFileURL(join(buildRoot, 'test/consumer/support/packed-tarballs.js')).href);
  let result;
  try {
    result = await packWorkingTree(dir);
  } catch (error) {
    result = { exitCode: 1, output: String(error?.stack ?? error) };
  }
  const failed = result.exitCode === 0 ? 0 : 1;
  // On failure the consumer suites pack for themselves, and fail with the page's own error.
  if (failed === 0) tarballs = dir;
  return { label, text: result.output, passed: 0, failed, skipped: 0, seconds: (performance.now() - started) / 1000 };
}

const slowness = (run) => {
  const index = slowFirst.findIndex((part) => relative(buildRoot, run.file).startsWith(part));
  return index === -1 ? slowFirst.length : index;
};
const results = [];
const queue = [...(packJob ? [packJob] : []), ...[...runs].sort((a, b) => slowness(a) - slowness(b))];
const running = new Set(); // the suite files running now, on any Node
const waiting = new Set(); // workers waiting for a run to become startable
const wake = () => {
  for (const resume of waiting) resume();
  waiting.clear();
};
// Suites that write the same folder, so never run at the same time (one would import or copy
// what the other is rewriting): the example app's build (examples/dist, examples/src/client.ts,
// examples/openapi.json) and the OpenAPI contract fixture's (build/openapi-contract).
const sharedOutputs = [
  ['test/openapi/example-document', 'test/build-tools/example-bundle', 'test/transformer/example-app', 'test/client/example-contract'],
  ['test/openapi/contract.test', 'test/client/round-trip', 'test/client/types'],
];
const outputGroup = (file) => {
  const path = relative(buildRoot, file);
  return sharedOutputs.findIndex((group) => group.some((part) => path.startsWith(part)));
};
const writesWithRunning = (run) => {
  const group = outputGroup(run.file);
  return group !== -1 && [...running].some((file) => outputGroup(file) === group);
};
// The next run that can start: a consumer suite once the tarballs are packed, and a suite not
// while it runs on another Node (runs of one suite share folders: examples/dist-bundle) nor while
// a suite that writes the same folder runs.
function nextRun() {
  const at = queue.findIndex(
    (run) =>
      run.pack || (!running.has(run.file) && !writesWithRunning(run) && !(isConsumer(run) && packJob !== undefined && !packJob.done)),
  );
  return at === -1 ? undefined : queue.splice(at, 1)[0];
}
const workerCount = Number(workersOption?.slice('--workers='.length) ?? 2);
const workers = Array.from({ length: workerCount }, async () => {
  while (queue.length > 0) {
    const run = nextRun();
    if (run === undefined) {
      await new Promise((resolve) => waiting.add(resolve));
      continue;
    }
    let result;
    if (run.pack) {
      result = await packTarballs(run);
      run.done = true;
    } else {
      running.add(run.file);
      result = await runSuite({ ...run, env: tarballs === undefined ? {} : { KILN_CONSUMER_TARBALLS: tarballs } });
      running.delete(run.file);
    }
    wake();
    results.push(result);
    const name = result.label;
    const status = result.failed > 0 ? 'FAIL' : 'ok  ';
    const counts = `${result.passed} passed, ${result.failed} failed${result.skipped ? `, ${result.skipped} skipped` : ''}`;
    console.log(`${status} ${name}: ${counts} (${result.seconds.toFixed(1)} s)`);
    if (result.failed > 0) console.log(result.text.replace(/^/gm, '    '));
  }
});
await Promise.all(workers);
if (tarballs !== undefined) rmSync(tarballs, { recursive: true, force: true });

const passed = results.reduce((sum, r) => sum + r.passed, 0);
const failed = results.reduce((sum, r) => sum + r.failed, 0) + buildFailures;
const skipped = results.reduce((sum, r) => sum + r.skipped, 0);
if (suites.length === 0) {
  console.log('No test suites were found.');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
// The slowest suites, so that a test that starts waiting on the wall clock is seen.
const slowest = [...results].sort((a, b) => b.seconds - a.seconds).slice(0, 5);
console.log(`\nslowest: ${slowest.map((r) => `${r.label} ${r.seconds.toFixed(1)} s`).join(', ')}`);
// The CPU time of every suite and what it started, which a loaded machine disturbs far less than
// the wall clock: the budget's measure (Linux only: /proc/self/stat, children's user + system time).
const childCpu = childCpuSeconds();
const wall = (performance.now() - runStarted) / 1000;
console.log(`time: ${wall.toFixed(0)} s, of which ${childCpu === undefined ? '?' : childCpu.toFixed(0)} s CPU (${workerCount} workers)`);
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
