// OpenAPI build overhead: `tspc -p` on the same generated 300-route Kiln project, with the
// @kiln/core/transformer plugin entry as usual and with its `openapi` option added (the build then
// also writes the OpenAPI 3.1 document of every route). Interleaved runs, medians.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { kilnApp } from '../generated-apps/kiln-app.mjs';
import { compileApp, writeApp } from '../generated-apps/write-app.mjs';
import { median } from '../report/statistics.mjs';

const routeCount = 300;

function withOpenApi(files) {
  const tsconfig = JSON.parse(files['tsconfig.json']);
  tsconfig.compilerOptions.plugins = tsconfig.compilerOptions.plugins.map((entry) =>
    entry.transform === '@kiln/core/transformer' ? { ...entry, openapi: { output: 'openapi.json', info: { title: 'Generated', version: '1.0.0' } } } : entry);
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
  const plainMs = [];
  const openApiMs = [];
  for (let run = 0; run < runs; run++) {
    plainMs.push((await compileApp(plainDir, 'tspc')).milliseconds);
    openApiMs.push((await compileApp(openApiDir, 'tspc')).milliseconds);
  }
  const result = { routeCount, runs, plainMs: median(plainMs), openApiMs: median(openApiMs), operations };
  result.ratio = result.openApiMs / result.plainMs;
  log(`build (openapi): ${routeCount} routes, tspc with the plugin ${(result.plainMs / 1000).toFixed(2)} s, with its openapi option ${(result.openApiMs / 1000).toFixed(2)} s: ${result.ratio.toFixed(3)}x`);
  return result;
}
