// Ready to publish: both packages as `npm pack` makes them (support/packed-tarballs.ts) pass publint
// (--strict) and Are the Types Wrong (the esm-only profile: Kiln's packages are ES modules for
// Node >= 20.16, whose CommonJS entries are the transformer's own), and `npm publish --dry-run`
// would upload what a consumer needs and nothing else: no tests, fixtures, benchmarks, examples or
// build state.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packedClone, packedTarballs, tarballNames } from './support/packed-tarballs.js';
import { runCommand } from './support/run-command.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const workDir = mkdtempSync(join(tmpdir(), 'kiln-package-contents-'));
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const packages = [
  { name: '@kiln/core', tarball: tarballNames.core, folder: '.' },
  { name: '@kiln/rate-limit', tarball: tarballNames.rateLimit, folder: 'packages/rate-limit' },
] as const;
const notForConsumers = /^(test|bench|examples|packages|build|docs|release|\.ci)\/|(^|\/)fixtures\/|\.test\.|tsbuildinfo|\.tgz$/;

test.before(async () => {
  const pack = await packedTarballs(workDir);
  assert.is(pack.exitCode, 0, pack.output);
});

for (const { name, tarball } of packages) {
  test(`publint --strict finds nothing in ${name}`, async () => {
    const lint = await runCommand(bin('publint'), ['--strict', join(workDir, 'kiln', tarball)], root);
    assert.is(lint.exitCode, 0, lint.output);
    assert.match(lint.output, /All good!/);
  });

  test(`Are the Types Wrong finds no problem in ${name} (esm-only profile)`, async () => {
    const check = await runCommand(bin('attw'), ['--profile', 'esm-only', '--format', 'ascii', join(workDir, 'kiln', tarball)], root);
    assert.is(check.exitCode, 0, check.output);
    assert.not.match(check.output, /^(?!.*\(ignored).*(💀|❌|🐛|🥴|⚠️)/mu, check.output);
  });
}

for (const { name, tarball, folder } of packages) {
  test(`npm publish --dry-run of ${name} uploads the tarball's files, none of them tests, fixtures or build state`, async () => {
    // --ignore-scripts: step 1 already built dist/ in the copy (prepack would build it again).
    const dryRun = await runCommand('npm', ['publish', '--dry-run', '--ignore-scripts', '--json'], join(packedClone(workDir), folder));
    assert.is(dryRun.exitCode, 0, dryRun.output);
    const report = JSON.parse(dryRun.output.slice(dryRun.output.indexOf('{'))) as Record<string, unknown>;
    const summary = (report[name] ?? report) as { name: string; files: { path: string }[] };
    assert.is(summary.name, name);
    const published = summary.files.map((file) => file.path).sort();
    const packed = execFileSync('tar', ['-tzf', join(workDir, 'kiln', tarball)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((line) => line.replace(/^package\//, ''))
      .sort();
    assert.equal(published, packed);
    assert.equal(
      published.filter((file) => notForConsumers.test(file)),
      [],
    );
    assert.ok(published.includes('package.json') && published.includes('README.md'));
  });
}

test.run();
