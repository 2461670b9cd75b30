// Builds every test project with tspc, runs each compiled uvu suite in its own process, and ends
// with one plain "N passed, N failed" line counted from the suites' own totals. Exit 1 on any failure.
// `node test/run.mjs [part ...] [--node=22,24,26]`: the suites whose path contains a part (all by
// default) on this Node, then the version-sensitive ones among them again on the other Node
// versions (installed from the npm registry into .cache/runtimes/ when missing): on 22, 24 and 26
// for a full run, on the versions --node names for a filtered one (--node= for none).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { delimiter, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runtimeBinary } from './runtimes/install-runtimes.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const buildRoot = join(root, 'build');
const nodeOption = process.argv.slice(2).find((arg) => arg.startsWith('--node='));
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--node='));
// What depends on the Node version, and where a full run runs it again: the HTTP stack
// (hardening: parser, limits, timeouts, close; runtime: requests, responses, web streams) on 22,
// 24 and 26; the example's esbuild bundle on 26. The first matching entry wins. The other
// build-tools suites (vite, vitest, watch, the register hook) and the consumer's install, build
// and bundle (5 to 10 minutes on a loaded machine: twice that in parallel) would take a full run
// past its budget: they run on request (--node=22,24,26 build-tools consumer).
const versionSensitive = {
  'test/hardening/': ['22', '24', '26'],
  'test/runtime/': ['22', '24', '26'],
  'test/build-tools/example-bundle': ['26'],
  'test/build-tools/': [],
  'test/consumer/': [],
};
// The longest suites start first, so that the two workers end together rather than one waiting on them.
const slowFirst = ['test/consumer/', 'test/build-tools/', 'test/transformer/consumer-setup'];
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
const projects = projectDirs.flatMap((dir) => findFiles(dir, (name) => name === 'tsconfig.json'));

rmSync(buildRoot, { recursive: true, force: true });
const tspc = join(root, 'node_modules', '.bin', 'tspc');
for (const project of projects) {
  const outDir = join(buildRoot, relative(root, join(project, '..')));
  const result = spawnSync(tspc, ['-p', project, '--outDir', outDir], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.log(`\nBuilding ${relative(root, project)} failed.`);
    if (only.length > 0) continue; // a filtered run (node test/run.mjs <part>) goes on with what did build
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
}

let suites = findFiles(buildRoot, (name) => name.endsWith('.test.js')).sort();
if (only.length > 0) suites = suites.filter((file) => only.some((part) => file.includes(part)));

// biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes start with ESC, and this strips them
const ansi = /\u001b\[[0-9;]*m/g;
function runSuite({ file, node, label }) {
  const started = performance.now();
  return new Promise((resolve) => {
    // This Node first on PATH, so that what a suite starts (npm, tspc, vitest) runs on it too.
    const path = `${dirname(node)}${delimiter}${process.env.PATH ?? ''}`;
    const child = spawn(node, [file], { cwd: root, env: { ...process.env, PATH: path, NO_COLOR: '1', FORCE_COLOR: '0' } });
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
for (const version of otherNodes) {
  const node = runtimeBinary(`node${version}`);
  for (const file of suites) {
    const name = relative(buildRoot, file);
    const versions = Object.entries(versionSensitive).find(([part]) => name.startsWith(part))?.[1];
    const chosen = versions !== undefined && (nodeOption !== undefined || versions.includes(version));
    if (chosen) runs.push({ file, node, label: `[node ${version}] ${name}` });
  }
}

const slowness = (run) => {
  const index = slowFirst.findIndex((part) => relative(buildRoot, run.file).startsWith(part));
  return index === -1 ? slowFirst.length : index;
};
const results = [];
const queue = [...runs].sort((a, b) => slowness(a) - slowness(b));
const workers = Array.from({ length: 2 }, async () => {
  while (queue.length > 0) {
    const result = await runSuite(queue.shift());
    results.push(result);
    const name = result.label;
    const status = result.failed > 0 ? 'FAIL' : 'ok  ';
    const counts = `${result.passed} passed, ${result.failed} failed${result.skipped ? `, ${result.skipped} skipped` : ''}`;
    console.log(`${status} ${name}: ${counts} (${result.seconds.toFixed(1)} s)`);
    if (result.failed > 0) console.log(result.text.replace(/^/gm, '    '));
  }
});
await Promise.all(workers);

const passed = results.reduce((sum, r) => sum + r.passed, 0);
const failed = results.reduce((sum, r) => sum + r.failed, 0);
const skipped = results.reduce((sum, r) => sum + r.skipped, 0);
if (suites.length === 0) {
  console.log('No test suites were found.');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
// The slowest suites, so that a test that starts waiting on the wall clock is seen.
const slowest = [...results].sort((a, b) => b.seconds - a.seconds).slice(0, 5);
console.log(`\nslowest: ${slowest.map((r) => `${r.label} ${r.seconds.toFixed(1)} s`).join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
