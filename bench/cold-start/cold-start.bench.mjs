// Cold start: process start → first 200 on the last of 200 generated routes, and peak RSS, for
// Kiln (tspc output, and one file bundled by esbuild with @kiln/core/esbuild), NestJS and
// routing-controllers, with hand-written node:http as the baseline. Runs are interleaved across
// frameworks; medians are reported. The raw server and the bundle run again on Node 26.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { kilnApp } from '../generated-apps/kiln-app.mjs';
import { nestjsApp } from '../generated-apps/nestjs-app.mjs';
import { routingControllersApp } from '../generated-apps/routing-controllers-app.mjs';
import { rawNodeApp } from '../generated-apps/raw-node-app.mjs';
import { lastRoutePath } from '../generated-apps/route-spread.mjs';
import { compileApp, writeApp } from '../generated-apps/write-app.mjs';
import { median } from '../report/statistics.mjs';
import { firstResponse } from './first-response.mjs';
import { runtimeBinary } from '../../test/runtimes/install-runtimes.mjs';

const routeCount = 200;
const port = 3420;
const esbuildBuild = fileURLToPath(new URL('../build-overhead/esbuild-build.mjs', import.meta.url));

export async function runColdStart({ runs = 7, transformer = false, log = console.log } = {}) {
  const apps = [
    { name: 'node:http (raw)', dir: await writeApp('cold-raw-node', rawNodeApp(routeCount)) },
    { name: 'Kiln', dir: await writeApp('cold-kiln', kilnApp(routeCount, { transformer })), compiler: transformer ? 'tspc' : 'tsc' },
    { name: 'NestJS (express)', dir: await writeApp('cold-nestjs', nestjsApp(routeCount)), compiler: 'tsc' },
    {
      name: 'Express + routing-controllers',
      dir: await writeApp('cold-routing-controllers', routingControllersApp(routeCount)),
      compiler: 'tsc',
    },
  ];
  for (const app of apps) if (app.compiler) await compileApp(app.dir, app.compiler);
  if (transformer) {
    // The deploy bundle: the same Kiln app as one ES module (Kiln's runtime inlined), built by esbuild with the plugin.
    const dir = await writeApp('cold-kiln-bundle', kilnApp(routeCount, { transformer }));
    await promisify(execFile)(process.execPath, [esbuildBuild, dir, 'full']);
    apps.splice(2, 0, { name: 'Kiln (esbuild bundle)', dir, main: 'bundle/server.mjs' });
  }
  // The same raw server and bundle on Node 26 (installed into .cache/runtimes/ when missing): the
  // 1.3× goal holds on both lines, and undici, which Kiln's Response needs, loads faster on 26.
  const node26 = runtimeBinary('node26');
  const onNode26 = apps
    .filter((app) => app.name === 'node:http (raw)' || app.name === 'Kiln (esbuild bundle)')
    .map((app) => ({ ...app, name: `${app.name}, Node 26`, compiler: undefined, node: node26 }));
  apps.push(...onNode26);
  log(`cold start: ${apps.length} apps of ${routeCount} routes built; ${runs} interleaved runs each`);

  const samples = Object.fromEntries(apps.map((app) => [app.name, []]));
  const path = lastRoutePath(routeCount);
  for (let run = 0; run < runs; run++) {
    for (const app of apps)
      samples[app.name].push(await firstResponse(join(app.dir, app.main ?? 'dist/main.js'), port, path, undefined, app.node));
  }
  const results = {};
  for (const app of apps) {
    results[app.name] = {
      milliseconds: median(samples[app.name].map((sample) => sample.milliseconds)),
      peakRssMb: median(samples[app.name].map((sample) => sample.peakRssMb)),
    };
    log(
      `cold start: ${app.name.padEnd(30)} ${results[app.name].milliseconds.toFixed(0).padStart(5)} ms  peak RSS ${results[app.name].peakRssMb.toFixed(1)} MB`,
    );
  }
  return { routeCount, runs, transformer, results };
}
