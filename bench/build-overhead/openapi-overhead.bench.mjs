// OpenAPI build overhead: `tspc -p` on the same generated 300-route Kiln project, with the
// @kiln/core/transformer plugin entry as usual and with its `openapi` option added (the build then
// also writes the OpenAPI 3.1 document of every route). Interleaved runs, medians.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { kilnApp } from '../generated-apps/kiln-app.mjs';
import { compileApp, writeApp } from '../generated-apps/write-app.mjs';
import { median } from '../report/statistics.mjs';

const routeCount = 300;
const run = promisify(execFile);
const tspc = fileURLToPath(new URL('../../node_modules/.bin/tspc', import.meta.url));

/**
 * One build, timed by wall clock and by the compiler's CPU time (user + system, from GNU time when
 * installed): on a machine other work shares, CPU time is disturbed far less than wall time.
 */
async function timedBuild(dir) {
  if (!existsSync('/usr/bin/time')) {
    const { milliseconds } = await compileApp(dir, 'tspc');
    return { wallMs: milliseconds, cpuMs: undefined };
  }
  const { stderr } = await run('/usr/bin/time', ['-f', 'kiln-time %e %U %S', tspc, '-p', join(dir, 'tsconfig.json')], {
    maxBuffer: 1 << 24,
  });
  const [, wall, user, system] = /kiln-time (\S+) (\S+) (\S+)/.exec(stderr) ?? [];
  return { wallMs: Number(wall) * 1000, cpuMs: (Number(user) + Number(system)) * 1000 };
}

function withOpenApi(files) {
  const tsconfig = JSON.parse(files['tsconfig.json']);
  tsconfig.compilerOptions.plugins = tsconfig.compilerOptions.plugins.map((entry) =>
    entry.transform === '@kiln/core/transformer'
      ? { ...entry, openapi: { output: 'openapi.json', info: { title: 'Generated', version: '1.0.0' } } }
      : entry,
  );
  return { ...files, 'tsconfig.json': JSON.stringify(tsconfig, null, 2) };
}

export async function runOpenApiOverhead({ runs = 5, log = console.log } = {}) {
  const files = kilnApp(routeCount, { transformer: true });
  const plainDir = await writeApp('build-plugin', files);
  const openApiDir = await writeApp('build-plugin-openapi', withOpenApi(files));
  await compileApp(plainDir, 'tspc'); // once untimed each: fills the OS file cache, proves both compile
  await compileApp(openApiDir, 'tspc');
  const document = JSON.parse(readFileSync(join(openApiDir, 'openapi.json'), 'utf8'));
  const operations = Object.values(document.paths).reduce((sum, item) => sum + Object.keys(item).length, 0);
  if (operations !== routeCount) throw new Error(`the document describes ${operations} operations, not ${routeCount}`);
  const plain = [];
  const withDocument = [];
  for (let round = 0; round < runs; round++) {
    plain.push(await timedBuild(plainDir));
    withDocument.push(await timedBuild(openApiDir));
  }
  const result = {
    routeCount,
    runs,
    operations,
    plainMs: median(plain.map((b) => b.wallMs)),
    openApiMs: median(withDocument.map((b) => b.wallMs)),
    plainCpuMs: plain[0].cpuMs === undefined ? undefined : median(plain.map((b) => b.cpuMs)),
    openApiCpuMs: withDocument[0].cpuMs === undefined ? undefined : median(withDocument.map((b) => b.cpuMs)),
  };
  result.ratio = result.openApiMs / result.plainMs;
  if (result.plainCpuMs !== undefined) result.cpuRatio = result.openApiCpuMs / result.plainCpuMs;
  log(
    `build (openapi): ${routeCount} routes, tspc with the plugin ${(result.plainMs / 1000).toFixed(2)} s, with its openapi option ${(result.openApiMs / 1000).toFixed(2)} s: ${result.ratio.toFixed(3)}x` +
      (result.cpuRatio === undefined
        ? ''
        : `; CPU ${(result.plainCpuMs / 1000).toFixed(2)} s and ${(result.openApiCpuMs / 1000).toFixed(2)} s: ${result.cpuRatio.toFixed(3)}x`),
  );
  return result;
}
