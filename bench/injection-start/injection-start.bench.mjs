// Start-up with dependency injection: process start → first 200 on the last of 200 generated
// routes, every controller taking three services through its constructor. Kiln resolves them from
// dependency lists written at build time; NestJS reads design:paramtypes at run time. The same app
// without services (Kiln) shows what injection adds. Runs are interleaved; medians are reported.
import { join } from 'node:path';
import { kilnApp } from '../generated-apps/kiln-app.mjs';
import { kilnServicesApp } from '../generated-apps/kiln-services-app.mjs';
import { nestjsServicesApp } from '../generated-apps/nestjs-services-app.mjs';
import { lastRoutePath } from '../generated-apps/route-spread.mjs';
import { compileApp, writeApp } from '../generated-apps/write-app.mjs';
import { median } from '../report/statistics.mjs';
import { firstResponse } from '../cold-start/first-response.mjs';

const routeCount = 200;
const servicesPerController = 3;
const port = 3421;

export async function runInjectionStart({ runs = 7, log = console.log } = {}) {
  const apps = [
    { name: 'Kiln, no services', dir: await writeApp('di-kiln-plain', kilnApp(routeCount, { transformer: true })), compiler: 'tspc' },
    { name: 'Kiln, 3 services per controller', dir: await writeApp('di-kiln', kilnServicesApp(routeCount)), compiler: 'tspc' },
    { name: 'NestJS, 3 providers per controller', dir: await writeApp('di-nestjs', nestjsServicesApp(routeCount)), compiler: 'tsc' },
  ];
  for (const app of apps) await compileApp(app.dir, app.compiler);
  log(
    `injection start-up: ${apps.length} apps of ${routeCount} routes (${routeCount / 10} controllers × ${servicesPerController} services) built; ${runs} interleaved runs each`,
  );
  const samples = Object.fromEntries(apps.map((app) => [app.name, []]));
  const path = lastRoutePath(routeCount);
  for (let run = 0; run < runs; run++) {
    for (const app of apps) samples[app.name].push(await firstResponse(join(app.dir, 'dist/main.js'), port, path));
  }
  const results = {};
  for (const app of apps) {
    results[app.name] = {
      milliseconds: median(samples[app.name].map((sample) => sample.milliseconds)),
      peakRssMb: median(samples[app.name].map((sample) => sample.peakRssMb)),
    };
    log(
      `injection start-up: ${app.name.padEnd(36)} ${results[app.name].milliseconds.toFixed(0).padStart(5)} ms  peak RSS ${results[app.name].peakRssMb.toFixed(1)} MB`,
    );
  }
  return { routeCount, servicesPerController, runs, results };
}

/** The report's section for this part. */
export function injectionStartMarkdown(part) {
  if (part === undefined) return [];
  const rows = Object.entries(part.results);
  const kiln = part.results['Kiln, 3 services per controller'].milliseconds;
  const nest = part.results['NestJS, 3 providers per controller'].milliseconds;
  const plain = part.results['Kiln, no services'].milliseconds;
  return [
    '### Start-up with dependency injection',
    '',
    `Process spawn → first 200 on the last of ${part.routeCount} generated routes; every controller takes ${part.servicesPerController} services through its constructor (a chain Audit → Repository → Service). Median of ${part.runs} interleaved runs.${part.load ? ` Load average before: ${part.load.before}; run ${part.load.at} at commit ${part.commit}.` : ''}`,
    '',
    '| app | first response (ms) | peak RSS (MB) |',
    '|---|---:|---:|',
    ...rows.map(([name, r]) => `| ${name} | ${r.milliseconds.toFixed(0)} | ${r.peakRssMb.toFixed(1)} |`),
    '',
    `Kiln with services: ${(kiln / nest).toFixed(2)}× NestJS's start-up time; injection adds ${(kiln - plain).toFixed(0)} ms over the same Kiln app without services.`,
    '',
  ];
}
