// Writes bench/results/latest.md from the raw results of each part (bench/results/raw/*.json):
// the machine and its load, the HTTP tables, Kiln against its targets, binding, cold start and
// build overhead. A part that has not been run is listed as such.
import { rateLimitRedisTargets } from './rate-limit-redis-markdown.mjs';
import { scenarios } from '../http/scenarios.mjs';
import { servers, baseline } from '../http/servers.mjs';
import { cpuRatioQuartiles, httpRows, roundRatioQuartiles } from './http-summary.mjs';
import { verdict as verdictOf } from '../interleaved/slots.mjs';
import { injectionStartMarkdown } from '../injection-start/injection-start.bench.mjs';
import { compressionMarkdown } from '../http/compression.bench.mjs';

const serverNames = servers.map((server) => server.name);
const fixed = (value, digits) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
const iqr = ({ median, q1, q3 }, unit = '') =>
  Number.isFinite(median) ? `${median.toFixed(2)}${unit} (${q1.toFixed(2)}–${q3.toFixed(2)})` : '–';
const whole = (value) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '–');

function loadLine(part) {
  return part.load
    ? ` Load average (1/5/15 min) before: ${part.load.before}; after: ${part.load.after}. Run ${part.load.at}${part.commit ? ` at commit ${part.commit}` : ''}.`
    : '';
}

function httpSection(http) {
  const lines = [
    '## HTTP throughput',
    '',
    `${http.rounds} rounds of ${http.seconds} s slots (interleaved: each process warmed ${http.warmupSeconds} s on a scenario before its first slot); ${http.loadGenerator}; ` +
      "server pinned to core 0, load generator to core 1 (`taskset`), 127.0.0.1 only. Every server's answers were checked before anything was timed; " +
      "each round takes the scenarios in turn and visits the servers in a rotated order, (d) right after each server's (b). " +
      'Each server runs three processes: one that only ever serves route (b) (the "fresh" (b)), one behind its rate limiter for (d), and one for everything else, ' +
      'which serves (a), (c), (e), the mixed traffic (m) and (mw) and then (b) again ("b2") in each round. ' +
      '"× raw" is the median of the per-round ratios to hand-written `node:http` on the same scenario, with their interquartile range. ' +
      '"CPU µs/req" is the server process\'s CPU time (user + system, from /proc) during the measurement divided by the requests served, ' +
      "a cost that the machine's other load disturbs less than req/s; \"× raw (CPU)\" is raw node:http's CPU per request over the server's, per round, median (IQR)." +
      loadLine(http),
    '',
  ];
  for (const scenario of scenarios) {
    const rows = httpRows(http, serverNames, baseline, scenario.id);
    if (rows.length === 0) continue;
    lines.push(
      `### ${scenario.title}`,
      '',
      '| server | req/s (median) | × raw node:http | p99 ms | CPU µs/req | × raw (CPU) | req/s per round |',
      '|---|---:|---:|---:|---:|---:|---|',
    );
    for (const row of rows) {
      const name = row.server === 'Kiln' ? '**Kiln**' : row.server;
      lines.push(
        `| ${name} | ${whole(row.rps)} | ${iqr(row.ratioIqr)} | ${fixed(row.p99Ms, 2)} | ${fixed(row.cpuUs, 1)} | ${iqr(row.cpuRatioIqr)} | ${row.perRound.map(whole).join(' / ')} |`,
      );
    }
    if (scenario.mixed) {
      lines.push(
        '',
        `Routes in rotation (wrk's Lua script sends them in turn over all connections; every answer checked first): ${scenario.mixed.map((entry) => `\`${entry.request.method} ${entry.request.path}\` (${entry.shape})`).join('; ')}.`,
      );
    }
    if (scenario.id === 'e') {
      lines.push(
        '',
        'Fastify answers through its response schema (fast-json-stringify); Kiln through the typed serialiser its build wrote for `UserSummary[]` (the value projected to its declared properties by a projector generated from the type, written by `JSON.stringify`); the others with `JSON.stringify`.',
      );
    }
    if (scenario.rateLimited) {
      const limiters = servers.map((s) => `${s.name}: ${s.rateLimiter ?? 'none usual, not run'}`).join('; ');
      lines.push('', `Limiters (max 1e9 per 60 s window, so none answers 429): ${limiters}.`);
      for (const [server, reason] of Object.entries(http.unavailable ?? {})) lines.push(`${server}: unavailable (${reason}).`);
    }
    lines.push('');
  }
  return lines;
}

function targetRows(results) {
  const rows = [];
  const show = (value, unit) => (Number.isFinite(value) ? `${value.toFixed(2)}${unit}` : 'not measured');
  const verdict = (value, met) => (Number.isFinite(value) ? (met(value) ? 'met' : '**missed**') : '–');
  // HTTP targets: the CPU-per-request ratio decides (the machine's other load disturbs it least),
  // by its interquartile range over the rounds: "level" when the range contains the target.
  const http = (target, ours, theirs, met) => {
    const byRps = roundRatioQuartiles(m, ours, theirs);
    const byCpu = cpuRatioQuartiles(m, ours, theirs);
    const atLeast = Number(/≥ ([\d.]+)×/.exec(target)?.[1]);
    const decided = Number.isFinite(atLeast) ? verdictOf(byCpu, { atLeast }) : verdict(byCpu.median, met);
    if (!Number.isFinite(byCpu.median)) return;
    rows.push(`| ${target} | ${iqr(byRps, '×')} | ${iqr(byCpu, '×')} | ${decided === 'missed' ? '**missed**' : decided} |`);
  };
  const other = (target, value, met, unit = '×') => rows.push(`| ${target} | ${show(value, unit)} | – | ${verdict(value, met)} |`);
  const m = results.http?.measurements;
  if (m) {
    http('(b) ≥ 0.95× raw node:http (fresh process, one route)', ['Kiln', 'b'], [baseline, 'b'], (v) => v >= 0.95);
    http('(b) after the other routes, same process, ≥ 0.95× raw', ['Kiln', 'b2'], [baseline, 'b2'], (v) => v >= 0.95);
    http("(m) mixed traffic, Kiln's Response, ≥ 0.95× raw node:http", ['Kiln', 'm'], [baseline, 'm'], (v) => v >= 0.95);
    http("(m) mixed traffic, Kiln's Response, ≥ 1.05× Fastify", ['Kiln', 'm'], ['Fastify', 'm'], (v) => v >= 1.05);
    http('(m) mixed traffic, the global Response, ≥ 0.90× raw node:http', ['Kiln', 'mw'], [baseline, 'mw'], (v) => v >= 0.9);
    http('(e) typed list ≥ 1.3× raw node:http (JSON.stringify)', ['Kiln', 'e'], [baseline, 'e'], (v) => v >= 1.3);
    http('(e) typed list ≥ 1.1× Fastify (response schema)', ['Kiln', 'e'], ['Fastify', 'e'], (v) => v >= 1.1);
    http('(c) ≥ 1.0× Fastify (AJV)', ['Kiln', 'c'], ['Fastify', 'c'], (v) => v >= 1.0);
    http('(d) ≥ 0.95× (b)', ['Kiln', 'd'], ['Kiln', 'b'], (v) => v >= 0.95);
    http('(b) with requestLogger() (pino to a file) ≥ 0.90× (b)', ['Kiln + requestLogger', 'b'], ['Kiln', 'b'], (v) => v >= 0.9);
    http('(b) ≥ 1.0× Fastify', ['Kiln', 'b'], ['Fastify', 'b'], (v) => v >= 1.0);
    http('(b) ≥ 1.0× Hono', ['Kiln', 'b'], ['Hono', 'b'], (v) => v >= 1.0);
    http('(b) ≥ 8× NestJS', ['Kiln', 'b'], ['NestJS (express)', 'b'], (v) => v >= 8);
    http('(b) ≥ 8× Express + routing-controllers', ['Kiln', 'b'], ['Express + routing-controllers', 'b'], (v) => v >= 8);
  }
  if (results.binding) other('binding: compiled ≥ 10× faster than reflection', results.binding.ratio, (v) => v >= 10);
  const cold = results.coldStart?.results;
  if (cold) {
    other('cold start ≤ 1/3 of NestJS', cold.Kiln.milliseconds / cold['NestJS (express)'].milliseconds, (v) => v <= 1 / 3);
    other('peak RSS within 15 MB of raw node:http', cold.Kiln.peakRssMb - cold[baseline].peakRssMb, (v) => v <= 15, ' MB');
  }
  if (results.build?.ratio !== undefined) other('build overhead ≤ 1.25× plain tspc', results.build.ratio, (v) => v <= 1.25);
  else rows.push('| build overhead ≤ 1.25× plain tspc | pending | – | – |');
  const bundle = cold?.['Kiln (esbuild bundle)'];
  if (bundle)
    other('cold start of the esbuild bundle ≤ 1.3× raw node:http', bundle.milliseconds / cold[baseline].milliseconds, (v) => v <= 1.3);
  const esbuild = results.build?.esbuild;
  if (esbuild) other('esbuild rebuild after one controller edit ≤ 300 ms', esbuild.incrementalMs, (v) => v <= 300, ' ms');
  if (results.rateLimitRedis) rows.push(...rateLimitRedisTargets(results.rateLimitRedis));
  return rows;
}

function bindingSection(binding) {
  const rows = Object.entries(binding.timings).map(
    ([name, t]) => `| ${name} | ${fixed(t.minNs, 1)} | ${fixed(t.p50Ns, 1)} | ${fixed(t.p99Ns, 1)} |`,
  );
  return [
    '## Binding micro-benchmark',
    '',
    'Binding the four arguments of `UsersController.get(id: number, active: boolean, tags: string[], requestId: string)` from one ' +
      "request (params matched, query parsed, headers answered from Node's object). Outputs checked equal on 4 inputs before timing; mitata." +
      ` Kiln's binder: ${binding.source ?? 'hand-written in the generated shape'}.` +
      loadLine(binding),
    '',
    '| binder | ns/op (fastest batch) | median | p99 |',
    '|---|---:|---:|---:|',
    ...rows,
    '',
    `Compiled is **${fixed(binding.ratio, 1)}×** faster than the reflection-based binder (fastest batches: on a shared machine preemption only adds time). "reads only" converts nothing: it is the cost both binders share ` +
      '(null-prototype lookups and `headers.get`), so no binder can be more than reflection ÷ floor times faster than this reflection binder.',
    '',
  ];
}

function inProcessSection(inProcess, http) {
  const titles = Object.fromEntries(scenarios.map((scenario) => [scenario.id, scenario.title]));
  const rows = Object.entries(inProcess.results).map(([id, r]) => {
    // Projection: raw node:http's measured CPU per request on the socket, plus Kiln's extra work.
    const rawCpuUs = http ? httpRows(http, [baseline], baseline, id)[0]?.cpuUs : undefined;
    const projected = Number.isFinite(rawCpuUs) ? rawCpuUs / (rawCpuUs + (r.kilnNs - r.rawNs) / 1000) : NaN;
    return `| ${titles[id]} | ${whole(r.kilnNs)} | ${whole(r.rawNs)} | ${whole(r.kilnNs - r.rawNs)} | ${fixed(projected, 3)} |`;
  });
  return [
    '## Listener work per request, in process',
    '',
    "Kiln's `app.handler` and the hand-written listener called directly on the same stub request and response (no socket, no HTTP " +
      "parser): the part of a request's CPU time that is the framework's own. Answers checked first; mitata, fastest batch of many requests " +
      '(preemption by other work only adds time). "Projected × raw" ' +
      "adds Kiln's extra work to raw node:http's measured server CPU per request on the socket: the ratio Kiln reaches when the server " +
      'core is the limit.' +
      loadLine(inProcess),
    '',
    '| route | Kiln ns/req | raw ns/req | Kiln extra ns | projected × raw |',
    '|---|---:|---:|---:|---:|',
    ...rows,
    '',
    ...limiterProjection(inProcess, http),
  ];
}

/** Kiln's (d)/(b) when the server core is the limit: route (b)'s socket cost plus each listener's own work. */
function limiterProjection(inProcess, http) {
  const b = inProcess.results.b;
  const d = inProcess.results.d;
  const rawCpuUs = http ? httpRows(http, [baseline], baseline, 'b')[0]?.cpuUs : undefined;
  if (!b || !d || !Number.isFinite(rawCpuUs)) return [];
  const socketUs = rawCpuUs - b.rawNs / 1000;
  const projected = (socketUs + b.kilnNs / 1000) / (socketUs + d.kilnNs / 1000);
  return [
    `Projected Kiln (d)/(b) on the socket: ${fixed(projected, 3)} (the limiter's own ${whole(d.kilnNs - b.kilnNs)} ns per request on ` +
      `${fixed(socketUs, 1)} µs of Node HTTP and kernel work; the three extra response headers' cost inside Node is not in this figure).`,
    '',
  ];
}

function coldStartSection(cold) {
  const rows = Object.entries(cold.results).map(
    ([name, r]) => `| ${name === 'Kiln' ? '**Kiln**' : name} | ${fixed(r.milliseconds, 0)} | ${fixed(r.peakRssMb, 1)} |`,
  );
  return [
    '## Cold start',
    '',
    `Process spawn → first 200 on the last of ${cold.routeCount} generated routes (each \`GET /c<n>/r<m>/:id?q=\`, typed id), median of ${cold.runs} interleaved runs; ` +
      `peak RSS is the process's VmHWM at that moment. Kiln's binders: ${cold.transformer ? 'generated by @kiln/core/transformer' : 'hand-written in the generated shape'}.` +
      loadLine(cold),
    '',
    '| app | ms to first 200 | peak RSS MB |',
    '|---|---:|---:|',
    ...rows,
    '',
  ];
}

function buildSection(build) {
  if (build.pending) return ['## Build overhead', '', `Pending: ${build.pending}`, ''];
  return [
    '## Build overhead',
    '',
    `\`tspc -p\` on a generated Kiln project of ${build.routeCount} routes, median of ${build.runs} interleaved runs.` + loadLine(build),
    '',
    '| build | wall seconds | CPU seconds |',
    '|---|---:|---:|',
    `| tspc without the plugin | ${fixed(build.withoutMs / 1000, 2)} | ${build.withoutCpuMs === undefined ? '–' : fixed(build.withoutCpuMs / 1000, 2)} |`,
    `| tspc with @kiln/core/transformer | ${fixed(build.withMs / 1000, 2)} | ${build.withCpuMs === undefined ? '–' : fixed(build.withCpuMs / 1000, 2)} |`,
    '',
    `Overhead: **${fixed(build.ratio, 2)}×** (${build.withCpuMs === undefined ? 'wall time' : `median of per-round CPU-time ratios; wall ${fixed(build.wallRatio, 2)}×`}). ${build.note ?? ''}`,
    '',
    ...(build.phases ? phaseRows(build.phases) : []),
    ...(build.esbuild ? esbuildRows(build.esbuild) : []),
  ];
}

function phaseRows(phases) {
  return [
    'Where the time goes (`node --cpu-prof` on both builds, samples sorted by phase; medians of 3 profiled runs, ms):',
    '',
    '| phase | without the plugin | with it |',
    '|---|---:|---:|',
    ...phases.map(({ phase, withoutMs, withMs }) => `| ${phase} | ${fixed(withoutMs, 0)} | ${fixed(withMs, 0)} |`),
    '',
  ];
}

function esbuildRows(esbuild) {
  return [
    "The same project bundled by esbuild with `@kiln/core/esbuild` (one ES module, Kiln's runtime inlined):",
    '',
    '| build | ms |',
    '|---|---:|',
    `| full build, process spawn → exit | ${fixed(esbuild.fullMs, 0)} |`,
    `| first build of an esbuild context, in process | ${fixed(esbuild.firstBuildMs, 0)} |`,
    `| rebuild after one controller is edited, same context | ${fixed(esbuild.incrementalMs, 0)} |`,
    '',
    `Full build: **${fixed(esbuild.vsTspc, 2)}×** tspc with the plugin. Rebuild: **${fixed(esbuild.incrementalMs, 0)} ms**, ${fixed(esbuild.incrementalRatio * 100, 0)}% of the first build.`,
    '',
  ];
}

function openApiBuildSection(build) {
  return [
    '## Build overhead of the OpenAPI document',
    '',
    `\`tspc -p\` on the same generated project of ${build.routeCount} routes with @kiln/core/transformer, without and with its \`openapi\` option (the build also writes a document of ${build.operations} operations), median of ${build.runs} interleaved runs.` +
      loadLine(build),
    '',
    '| build | seconds (wall) | CPU seconds (user + system) |',
    '|---|---:|---:|',
    `| tspc with @kiln/core/transformer | ${fixed(build.plainMs / 1000, 2)} | ${fixed((build.plainCpuMs ?? NaN) / 1000, 2)} |`,
    `| the same with \`openapi\` | ${fixed(build.openApiMs / 1000, 2)} | ${fixed((build.openApiCpuMs ?? NaN) / 1000, 2)} |`,
    '',
    `Overhead of the document: **${fixed((build.ratio - 1) * 100, 1)}%** by wall clock, **${fixed(((build.cpuRatio ?? NaN) - 1) * 100, 1)}%** by CPU time (target ≤ 15%).`,
    '',
  ];
}

export function resultsMarkdown(results) {
  const machine = results.machine;
  const lines = [
    '# Kiln benchmark results',
    '',
    `Generated by \`npm run bench\` (${results.generatedAt}). Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.os}; ` +
      `Node ${machine.node}; TypeScript ${machine.typescript}. Other work on the machine shares its 2 cores, so compare ratios within a round, not absolute figures across runs.`,
    '',
    '![HTTP throughput](latest.svg)',
    '',
    '## Kiln against its targets',
    '',
    'From the parts below, on the Node that ran the bench (the targets of the performance issue, on Node 26, 24, 20, Bun and Deno, are in the section above). ' +
      'Ratios are Kiln over the other (above 1: Kiln is faster), medians of per-round ratios with their interquartile range. "by CPU/req" divides the other\'s server CPU time per request by Kiln\'s and decides the verdict: ' +
      'met when the whole IQR reaches the target, missed when none of it does, level when it contains the target.',
    '',
    '| target | by req/s, median (IQR) | by CPU/req, median (IQR) | verdict (CPU/req) |',
    '|---|---:|---:|---|',
    ...targetRows(results),
    '',
  ];
  // A part not run here writes no section: latest.md keeps the one its last run wrote.
  if (results.http) lines.push(...httpSection(results.http));
  if (results.compression) lines.push('## Compression cost on route (e)', '', compressionMarkdown(results.compression), '');
  if (results.binding) lines.push(...bindingSection(results.binding));
  if (results.inProcess) lines.push(...inProcessSection(results.inProcess, results.http));
  if (results.coldStart) lines.push(...coldStartSection(results.coldStart));
  if (results.injectionStart) lines.push(...injectionStartMarkdown(results.injectionStart));
  if (results.build) lines.push(...buildSection(results.build));
  if (results.buildOpenApi) lines.push(...openApiBuildSection(results.buildOpenApi));
  lines.push(
    'Rerun: `npm run bench` (all parts) or `npm run bench -- binding|in-process|http|cold-start|build` (one part; the others keep their last results); `npm run bench -- report` rewrites this file from the last results.',
    '',
  );
  return lines.join('\n');
}
