// The build-tools fixture's check suite (fixtures/app/checks.mjs) and the builds every suite that
// runs it needs: the esbuild bundle served over HTTP and a vitest run through @kiln/core/vite.
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import kiln from '@kiln/core/esbuild';
import { fixtures, run, serve, vitest, type Served } from './fixture-project.js';

export interface Check {
  name: string;
  status: number;
}

export interface CheckSuite {
  checks: Check[];
  requestOf(check: Check, base: string): Request;
  expected(check: Check): unknown;
  actual(response: Response): Promise<unknown>;
}

export const checkSuite = (await import(pathToFileURL(join(fixtures, 'app', 'checks.mjs')).href)) as CheckSuite;

export interface VitestRun {
  code: number | null;
  output: string;
  report: { testResults: { assertionResults: { title: string; status: string }[] }[] };
}

/** Bundles the project's `src/main.ts` with @kiln/core/esbuild into `bundle/server.mjs` and serves it. */
export async function bundleAndServe(dir: string): Promise<Served> {
  const result = await build({
    entryPoints: [join(dir, 'src', 'main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: join(dir, 'bundle', 'server.mjs'),
    plugins: [kiln({ tsconfig: join(dir, 'tsconfig.json') })],
    logLevel: 'silent',
  });
  assert.equal(result.errors, []);
  return serve(['bundle/server.mjs'], dir);
}

/** Runs the project's vitest tests (built by @kiln/core/vite) with the JSON reporter. */
export async function runVitest(dir: string): Promise<VitestRun> {
  const ran = await run(vitest, ['run', '--root', dir, '--reporter=json', '--outputFile=vitest-report.json'], dir);
  return { ...ran, report: JSON.parse(readFileSync(join(dir, 'vitest-report.json'), 'utf8')) };
}

/** Every check of the suite passed in the vitest run, and nothing else ran. */
export function assertVitestPassedEveryCheck(vitestRun: VitestRun): void {
  const results = vitestRun.report.testResults.flatMap((file) => file.assertionResults);
  assert.equal(results.map((r) => r.title).sort(), checkSuite.checks.map((c) => c.name).sort(), vitestRun.output);
  for (const result of results) assert.is(result.status, 'passed', `${result.title}\n${vitestRun.output}`);
  assert.is(vitestRun.code, 0);
}

/** Every check of the suite over HTTP against a served build. */
export async function assertServedChecksPass(server: Served, label: string): Promise<void> {
  for (const check of checkSuite.checks) {
    const response = await fetch(checkSuite.requestOf(check, server.base));
    assert.equal(await checkSuite.actual(response), checkSuite.expected(check), `${label}: ${check.name}`);
  }
}
