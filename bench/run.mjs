#!/usr/bin/env node
// `npm run bench [-- part ...] [--rounds N] [--seconds S] [--warmup S] [--servers REGEX] [--scenarios a,b,c,d] [--runtimes Bun,Deno] [--groups REGEX] [--quick] [--no-build]`
// Installs bench/'s own dependencies if missing, builds Kiln (and @kiln/rate-limit) and the
// benchmark apps, runs the chosen parts, keeps each part's raw results in bench/results/raw/ and
// rewrites bench/results/latest.md (and latest.svg) from them: each part owns its own sections
// of latest.md, and every other section there (added by hand or by another tool) is kept.
// With no part named, `targets` runs: every target of the performance issue, Kiln against raw
// node:http and its peers on Node 26, 24 and 20, Bun and Deno, measured by interleaved 1-second
// slots (bench/interleaved/slots.mjs), about 15 minutes (`--quick`: 3 cycles a group, about 3).
// `all` runs every part. Parts: targets, binding, in-process, http, compression, cold-start,
// injection-start, build, rate-limit-redis, runtimes (Node 20/26, Bun, Deno, workerd); `report`
// alone rewrites the report only.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const benchDir = fileURLToPath(new URL('.', import.meta.url));
const rootDir = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const rawDir = fileURLToPath(new URL('results/raw/', import.meta.url));
const allParts = [
  'targets',
  'binding',
  'in-process',
  'http',
  'compression',
  'cold-start',
  'injection-start',
  'build',
  'rate-limit-redis',
  'runtimes',
];

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    // Defaults: http 10 rounds of 1 s slots; the other parts 3 rounds of 5 s.
    rounds: { type: 'string' },
    seconds: { type: 'string' },
    warmup: { type: 'string', default: '2' },
    servers: { type: 'string' },
    scenarios: { type: 'string' },
    // The runtimes part only: which runtimes to measure ('Node 20,Node 26,Bun,Deno,workerd'); the others keep their last results.
    runtimes: { type: 'string' },
    // The targets part only: a pattern of the group ids to measure ('Deno', 'Node 26:(b|m)$'); the others keep their last results.
    groups: { type: 'string' },
    quick: { type: 'boolean', default: false },
    // Skips `npm run build` (Kiln and its packages as last built); bench/'s own TypeScript is still compiled.
    'no-build': { type: 'boolean', default: false },
  },
});
// `report` measures nothing: it rewrites latest.md and latest.svg from the last raw results.
const reportOnly = positionals.length === 1 && positionals[0] === 'report';
const parts = reportOnly ? [] : positionals.length === 0 ? ['targets'] : positionals.includes('all') ? allParts : positionals;
for (const part of parts) if (!allParts.includes(part)) throw new Error(`Unknown part '${part}'; parts are ${allParts.join(', ')}`);

function sh(command, args, cwd = rootDir) {
  console.log(`$ ${command} ${args.join(' ')}`);
  execFileSync(command, args, { cwd, stdio: 'inherit' });
}

function transformerAvailable() {
  try {
    createRequire(`${benchDir}/package.json`).resolve('@kiln/core/transformer');
    return true;
  } catch {
    return false;
  }
}

// 1. bench/'s own dependencies: never part of a Kiln user's install.
if (reportOnly) {
  // nothing to install or build
} else if (!existsSync(`${benchDir}/node_modules/.package-lock.json`)) sh('npm', ['ci', '--prefix', 'bench', '--no-audit', '--no-fund']);
// 2. Kiln, the rate limiter, then the benchmark's TypeScript.
const transformer = transformerAvailable();
if (!reportOnly) {
  if (!options['no-build']) sh('npm', ['run', 'build']);
  if (existsSync(`${rootDir}/packages/rate-limit/package.json`) && !existsSync(`${rootDir}/packages/rate-limit/dist/index.js`))
    sh('npm', ['run', 'build', '--workspace', '@kiln/rate-limit']);
  sh(`${rootDir}/node_modules/.bin/tspc`, ['-p', 'bench/tsconfig.kiln.json']);
  sh(`${rootDir}/node_modules/.bin/tsc`, ['-p', 'bench/tsconfig.legacy.json']);
}

const { commit, loadAverage, machine } = await import('./report/machine.mjs');
await mkdir(rawDir, { recursive: true });

// The targets' figures are kept in git beside latest.md: `--groups` re-measures some groups and
// keeps the others' last figures, which a fresh clone must have too. Other parts' raw results are local.
function rawPath(name) {
  return name === 'targets' ? `${benchDir}/results/targets.json` : `${rawDir}/${name}.json`;
}

async function readRawEarly(name) {
  try {
    return JSON.parse(await readFile(rawPath(name), 'utf8'));
  } catch {
    return undefined;
  }
}

async function timed(name, run) {
  const before = loadAverage();
  const at = new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
  const result = await run();
  result.load = { before, after: loadAverage(), at };
  result.commit = commit();
  await writeFile(rawPath(name), `${JSON.stringify(result, null, 2)}\n`);
}

const quick = options.quick;
for (const part of parts) {
  console.log(`\n== ${part} (load average ${loadAverage()})`);
  if (part === 'targets') {
    const { runTargets } = await import('./targets/targets.bench.mjs');
    const previous = await readRawEarly('targets');
    await timed('targets', () => runTargets({ quick, only: options.groups ? new RegExp(options.groups) : undefined, previous }));
  } else if (part === 'binding') {
    const { runBinding } = await import('./binding/binding.bench.mjs');
    await timed('binding', () => runBinding());
  } else if (part === 'in-process') {
    const { runInProcess } = await import('./in-process/in-process.bench.mjs');
    await timed('in-process', () => runInProcess());
  } else if (part === 'http') {
    const { runHttp } = await import('./http/http.bench.mjs');
    await timed('http', () =>
      runHttp({
        rounds: quick ? 3 : Number(options.rounds ?? 10),
        seconds: Number(options.seconds ?? 1),
        warmupSeconds: quick ? 1 : Number(options.warmup),
        serverFilter: options.servers ? new RegExp(options.servers, 'i') : undefined,
        scenarioIds: options.scenarios ? options.scenarios.split(',') : undefined,
      }),
    );
  } else if (part === 'compression') {
    const { runCompression, compressionMarkdown } = await import('./http/compression.bench.mjs');
    await timed('compression', async () => {
      const result = await runCompression({
        rounds: quick ? 1 : Number(options.rounds ?? 3),
        seconds: quick ? 2 : Number(options.seconds ?? 5),
        warmupSeconds: quick ? 1 : Number(options.warmup),
      });
      console.log(compressionMarkdown(result));
      return result;
    });
  } else if (part === 'cold-start') {
    const { runColdStart } = await import('./cold-start/cold-start.bench.mjs');
    await timed('cold-start', () => runColdStart({ runs: quick ? 3 : 7, transformer }));
  } else if (part === 'injection-start') {
    const { runInjectionStart } = await import('./injection-start/injection-start.bench.mjs');
    await timed('injection-start', () => runInjectionStart({ runs: quick ? 3 : 7 }));
  } else if (part === 'rate-limit-redis') {
    const { runRateLimitRedis } = await import('./rate-limit-redis/rate-limit-redis.bench.mjs');
    await timed('rate-limit-redis', () =>
      runRateLimitRedis({
        rounds: quick ? 1 : Number(options.rounds ?? 3),
        seconds: quick ? 2 : Number(options.seconds ?? 5),
        warmupSeconds: quick ? 1 : Number(options.warmup),
      }),
    );
  } else if (part === 'runtimes') {
    const { runRuntimes } = await import('./runtimes/runtimes.bench.mjs');
    const previous = await readRawEarly('runtimes');
    await timed('runtimes', () =>
      runRuntimes({
        rounds: quick ? 3 : Number(options.rounds ?? 10),
        seconds: Number(options.seconds ?? 1),
        warmupSeconds: quick ? 1 : Number(options.warmup),
        coldStartRuns: quick ? 3 : 7,
        only: options.runtimes?.split(','),
        previous,
      }),
    );
  } else if (part === 'build') {
    const { runBuildOverhead } = await import('./build-overhead/build-overhead.bench.mjs');
    await timed('build', () => runBuildOverhead({ runs: quick ? 2 : 5, transformer }));
    const { runOpenApiOverhead } = await import('./build-overhead/openapi-overhead.bench.mjs');
    await timed('build-openapi', () => runOpenApiOverhead({ runs: quick ? 2 : 5 }));
    const { runTypeScript7Overhead } = await import('./build-overhead/typescript-7.bench.mjs');
    await timed('build-typescript-7', () => runTypeScript7Overhead({ runs: quick ? 2 : 5 }));
  }
}

// 3. The report, from whatever raw results exist.
async function readRaw(name) {
  try {
    return JSON.parse(await readFile(rawPath(name), 'utf8'));
  } catch {
    return undefined;
  }
}
const results = {
  generatedAt: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
  machine: machine(),
  binding: await readRaw('binding'),
  inProcess: await readRaw('in-process'),
  http: await readRaw('http'),
  compression: await readRaw('compression'),
  coldStart: await readRaw('cold-start'),
  injectionStart: await readRaw('injection-start'),
  build: await readRaw('build'),
  buildOpenApi: await readRaw('build-openapi'),
  rateLimitRedis: await readRaw('rate-limit-redis'),
};
const { resultsMarkdown } = await import('./report/results-markdown.mjs');
const { chartPanels } = await import('./report/chart-panels.mjs');
const { barChartSvg } = await import('./report/bar-chart-svg.mjs');
const runtimes = await readRaw('runtimes');
const { runtimesMarkdown } = await import('./report/runtimes-markdown.mjs');
const rateLimitRedis = await readRaw('rate-limit-redis');
const { rateLimitRedisMarkdown } = await import('./report/rate-limit-redis-markdown.mjs');
const targets = await readRaw('targets');
const { targetsMarkdown, targetsHeading } = await import('./report/targets-markdown.mjs');
const { mergeSections } = await import('./report/merge-sections.mjs');
const nodeParts = ['binding', 'inProcess', 'http', 'compression', 'coldStart', 'injectionStart', 'build', 'buildOpenApi'];
const latestPath = `${benchDir}/results/latest.md`;
const existing = existsSync(latestPath) ? await readFile(latestPath, 'utf8') : '';
// Each part's sections replace their namesakes in latest.md; a part with no raw results here
// leaves its sections as the last run wrote them, and sections no part writes are kept.
const generated = [
  ...(nodeParts.some((part) => results[part] !== undefined) || existing === '' ? [resultsMarkdown(results)] : []),
  ...(targets ? [targetsMarkdown(targets, { commit: targets.commit })] : []),
  ...(rateLimitRedis ? [rateLimitRedisMarkdown(rateLimitRedis)] : []),
  ...(runtimes ? [runtimesMarkdown(runtimes)] : []),
];
await writeFile(latestPath, mergeSections(existing, generated, { top: [targetsHeading] }));
if (results.http)
  await writeFile(
    `${benchDir}/results/latest.svg`,
    barChartSvg(chartPanels(results.http), {
      title: `HTTP throughput, req/s (${results.machine.cores} cores, Node ${results.machine.node})`,
    }),
  );
console.log('\nWrote bench/results/latest.md' + (results.http ? ' and latest.svg' : ''));
