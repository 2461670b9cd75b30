// What a typed client costs the consumer's type checker: `tsc --noEmit` (TypeScript 6) and tsgo
// (TypeScript 7) on a project that calls every route of a generated API of N routes, once through
// the client Kiln's build writes (`client` option), once through Hono's `hc` over the same API
// written as a Hono app, and once through Elysia's Eden Treaty over it written as an Elysia app.
// CPU time, wall time and peak memory (/usr/bin/time) of each check, median of a few runs.
//
//   node bench/typed-client/typecheck-cost.mjs [50,300,1000] [--runs=3] [--clients=hono,elysia]
//
// Each app: controllers of 10 routes; a route takes a number path parameter and a string query
// value (and every fifth a JSON body), and answers an object with a nested array. The Kiln
// consumer compiles only the generated client (as a browser or another service does); Hono's
// and Elysia's consumers import the app's type, so their check includes the app (as `hc` and Eden
// require).
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { numberOption, option } from '../command-line.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const work = join(root, 'build', 'bench-typed-client');
const sizes = (process.argv.slice(2).find((a) => !a.startsWith('--')) ?? '50,300,1000').split(',').map(Number);
const runs = numberOption('runs', 3);
// `--clients=kiln,elysia`: which clients to measure (Kiln's always comes first, as the reference).
const only = ['kiln', ...option('clients', 'hono,elysia').split(',')];
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const tsgo = join(root, 'node_modules', 'typescript-7', 'bin', 'tsc');
const tspc = join(root, 'node_modules', '.bin', 'tspc');
// Elysia runs on Bun: the binary test/runtimes/install-runtimes.mjs installs.
const bun = join(root, '.cache', 'runtimes', 'bun', 'node_modules', '@oven', 'bun-linux-x64', 'bin', 'bun');

const controllerCount = (routes) => Math.ceil(routes / 10);
const routesOf = (routes, c) =>
  Array.from({ length: Math.min(10, routes - c * 10) }, (_, r) => ({ r, index: c * 10 + r, body: (c * 10 + r) % 5 === 4 }));

function kilnApp(dir, routes) {
  const src = join(dir, 'src');
  mkdirSync(src, { recursive: true });
  const names = [];
  for (let c = 0; c < controllerCount(routes); c++) {
    names.push(`C${c}Controller`);
    const methods = routesOf(routes, c).map(({ r, index, body }) =>
      body
        ? `  @Post('/r${r}/:id')
  r${r}(@Param('id') id: number, @Query('q') q: string, @Body() item: NewItem${index}) {
    return { route: ${index}, id, q, items: [{ name: item.name, n: item.n }] };
  }`
        : `  @Get('/r${r}/:id')
  r${r}(@Param('id') id: number, @Query('q') q: string) {
    return { route: ${index}, id, q, items: [{ name: 'a', n: 1 }] };
  }`,
    );
    const bodies = routesOf(routes, c)
      .filter((x) => x.body)
      .map(({ index }) => `export interface NewItem${index} {\n  name: string;\n  n: number;\n}\n`);
    writeFileSync(
      join(src, `c${c}.ts`),
      `import { Body, Controller, Get, Param, Post, Query } from '@kiln/core';\n\n${bodies.join('\n')}\n@Controller('/c${c}')\nexport class C${c}Controller {\n${methods.join('\n\n')}\n}\n`,
    );
  }
  writeFileSync(
    join(src, 'app.ts'),
    `import { createServer } from '@kiln/core';\n${names.map((n, c) => `import { ${n} } from './c${c}.js';`).join('\n')}\n\nexport const app = createServer({ controllers: [${names.join(', ')}] });\n`,
  );
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        strict: true,
        types: ['node'],
        rootDir: '.',
        outDir: 'dist',
        skipLibCheck: true,
        plugins: [
          { transform: join(root, 'dist', 'transformer', 'index.cjs'), transformProgram: true, client: { output: 'client/client.ts' } },
          { transform: 'typia/lib/transform' },
        ],
      },
      include: ['src'],
    }),
  );
  const built = spawnSync(tspc, ['-p', dir], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`the Kiln app of ${routes} routes did not build:\n${built.stdout}${built.stderr}`);
  // The consumer: the generated client and one file calling every route (one function per
  // controller: one function of 1,000 calls is past TypeScript's control-flow limit, TS2563).
  const functions = [];
  for (let c = 0; c < controllerCount(routes); c++) {
    const calls = routesOf(routes, c).map(({ r, body }) => {
      const input = body ? `{ id: 1, q: 'x', body: { name: 'n', n: 1 } }` : `{ id: 1, q: 'x' }`;
      return `  {\n    const result = await api.c${c}.r${r}(${input});\n    if (result.ok) total += result.data.id + result.data.items[0]!.n;\n  }`;
    });
    functions.push(`export async function callC${c}(): Promise<number> {\n  let total = 0;\n${calls.join('\n')}\n  return total;\n}\n`);
  }
  writeFileSync(
    join(dir, 'client', 'consumer.ts'),
    `import { createClient } from './client.js';\n\nconst api = createClient({ baseUrl: 'http://127.0.0.1:3000' });\n\n${functions.join('\n')}`,
  );
  writeConsumerConfig(join(dir, 'client'), ['consumer.ts', 'client.ts']);
  return join(dir, 'client');
}

function honoApp(dir, routes) {
  mkdirSync(dir, { recursive: true });
  const parts = [];
  for (let c = 0; c < controllerCount(routes); c++) {
    const chain = routesOf(routes, c).map(({ r, index, body }) =>
      body
        ? `  .post('/r${r}/:id', validator('query', (value) => ({ q: String(value.q) })), validator('json', (value) => value as { name: string; n: number }), (c) => {
    const item = c.req.valid('json');
    return c.json({ route: ${index}, id: Number(c.req.param('id')), q: c.req.valid('query').q, items: [{ name: item.name, n: item.n }] });
  })`
        : `  .get('/r${r}/:id', validator('query', (value) => ({ q: String(value.q) })), (c) =>
    c.json({ route: ${index}, id: Number(c.req.param('id')), q: c.req.valid('query').q, items: [{ name: 'a', n: 1 }] }),
  )`,
    );
    parts.push(`const c${c} = new Hono()\n${chain.join('\n')};`);
  }
  const routesChain = Array.from({ length: controllerCount(routes) }, (_, c) => `  .route('/c${c}', c${c})`).join('\n');
  writeFileSync(
    join(dir, 'app.ts'),
    `import { Hono } from 'hono';\nimport { validator } from 'hono/validator';\n\n${parts.join('\n\n')}\n\nexport const app = new Hono()\n${routesChain};\nexport type AppType = typeof app;\n`,
  );
  const functions = [];
  for (let c = 0; c < controllerCount(routes); c++) {
    const calls = routesOf(routes, c).map(({ r, body }) => {
      const call = body
        ? `client.c${c}.r${r}[':id'].$post({ param: { id: '1' }, query: { q: 'x' }, json: { name: 'n', n: 1 } })`
        : `client.c${c}.r${r}[':id'].$get({ param: { id: '1' }, query: { q: 'x' } })`;
      return `  {\n    const response = await ${call};\n    if (response.ok) {\n      const data = await response.json();\n      total += data.id + data.items[0]!.n;\n    }\n  }`;
    });
    functions.push(`export async function callC${c}(): Promise<number> {\n  let total = 0;\n${calls.join('\n')}\n  return total;\n}\n`);
  }
  writeFileSync(
    join(dir, 'consumer.ts'),
    `import { hc } from 'hono/client';\nimport type { AppType } from './app.js';\n\nconst client = hc<AppType>('http://127.0.0.1:3000');\n\n${functions.join('\n')}`,
  );
  writeConsumerConfig(dir, ['consumer.ts']);
  return dir;
}

/**
 * The same API as an Elysia app (chained per controller, joined with `.use()`: the documented
 * pattern for Eden), called through Eden Treaty 2 (`treaty<App>`), whose consumer imports the
 * app's type as Hono's does. Params and query are typed with Elysia's `t` schemas. Checked on Bun
 * (Elysia's runtime) before anything is timed.
 */
function elysiaApp(dir, routes) {
  mkdirSync(dir, { recursive: true });
  const parts = [];
  for (let c = 0; c < controllerCount(routes); c++) {
    const chain = routesOf(routes, c).map(({ r, index, body }) =>
      body
        ? `  .post('/r${r}/:id', ({ params, query, body }) => ({ route: ${index}, id: params.id, q: query.q, items: [{ name: body.name, n: body.n }] }), {
    params: t.Object({ id: t.Numeric() }),
    query: t.Object({ q: t.String() }),
    body: t.Object({ name: t.String(), n: t.Number() }),
  })`
        : `  .get('/r${r}/:id', ({ params, query }) => ({ route: ${index}, id: params.id, q: query.q, items: [{ name: 'a', n: 1 }] }), {
    params: t.Object({ id: t.Numeric() }),
    query: t.Object({ q: t.String() }),
  })`,
    );
    parts.push(`const c${c} = new Elysia({ prefix: '/c${c}' })\n${chain.join('\n')};`);
  }
  // Controllers joined ten at a time, then the groups: one chain of 100 .use() calls (1,000
  // routes) is TS2589 "Type instantiation is excessively deep" for tsc and tsgo alike.
  const groups = [];
  for (let g = 0; g * 10 < controllerCount(routes); g++) {
    const members = Array.from({ length: Math.min(10, controllerCount(routes) - g * 10) }, (_, k) => `  .use(c${g * 10 + k})`);
    groups.push(`const g${g} = new Elysia()\n${members.join('\n')};`);
  }
  const uses = groups.map((_, g) => `  .use(g${g})`).join('\n');
  writeFileSync(
    join(dir, 'app.ts'),
    `import { Elysia, t } from 'elysia';\n\n${parts.join('\n\n')}\n\n${groups.join('\n\n')}\n\nexport const app = new Elysia()\n${uses};\nexport type App = typeof app;\n`,
  );
  const functions = [];
  for (let c = 0; c < controllerCount(routes); c++) {
    const calls = routesOf(routes, c).map(({ r, body }) => {
      const call = body
        ? `client.c${c}.r${r}({ id: 1 }).post({ name: 'n', n: 1 }, { query: { q: 'x' } })`
        : `client.c${c}.r${r}({ id: 1 }).get({ query: { q: 'x' } })`;
      return `  {\n    const { data } = await ${call};\n    if (data) total += data.id + data.items[0]!.n;\n  }`;
    });
    functions.push(`export async function callC${c}(): Promise<number> {\n  let total = 0;\n${calls.join('\n')}\n  return total;\n}\n`);
  }
  writeFileSync(
    join(dir, 'consumer.ts'),
    `import { treaty } from '@elysiajs/eden';\nimport type { App } from './app.js';\n\nconst client = treaty<App>('http://127.0.0.1:3000');\n\n${functions.join('\n')}`,
  );
  writeConsumerConfig(dir, ['consumer.ts']);
  // Before anything is timed: the app serves on Bun and Eden's calls get what the types say.
  writeFileSync(
    join(dir, 'serve.ts'),
    `import { treaty } from '@elysiajs/eden';
import { app } from './app.ts';

app.listen({ port: 0, hostname: '127.0.0.1' });
const client = treaty<typeof app>(\`http://127.0.0.1:\${app.server!.port}\`);
const got = await client.c0.r0({ id: 7 }).get({ query: { q: 'x' } });
const refused = await client.c0.r0({ id: 7 }).get({ query: {} as { q: string } });
console.log(JSON.stringify({ got: got.data, refused: refused.error?.status }));
await app.stop();
`,
  );
  const served = spawnSync(bun, [join(dir, 'serve.ts')], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  const expected = JSON.stringify({ got: { route: 0, id: 7, q: 'x', items: [{ name: 'a', n: 1 }] }, refused: 422 });
  if (served.stdout.trim() !== expected)
    throw new Error(`the Elysia app of ${routes} routes did not answer Eden on Bun as expected:\n${served.stdout}${served.stderr}`);
  return dir;
}

function writeConsumerConfig(dir, files) {
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2023', 'DOM'],
        types: [],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
      },
      files,
    }),
  );
}

/**
 * One type check: CPU seconds (user + system: on a shared machine the wall time is mostly waiting),
 * wall seconds and peak memory (MiB), from /usr/bin/time; a check with errors fails the bench.
 */
function check(compiler, project) {
  const ran = spawnSync(
    '/usr/bin/time',
    ['-f', 'KILN_TIME %e %U %S %M', process.execPath, compiler, '--noEmit', '-p', project, '--pretty', 'false'],
    {
      encoding: 'utf8',
      timeout: 600_000,
    },
  );
  const measured = /KILN_TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(ran.stderr);
  if (ran.status !== 0 || measured === null)
    return { failed: `${ran.stdout}${ran.stderr}`.split('\n').slice(0, 3).join(' ').slice(0, 300) };
  return { seconds: Number(measured[2]) + Number(measured[3]), wall: Number(measured[1]), mib: Number(measured[4]) / 1024 };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function measure(compiler, project) {
  const results = [];
  for (let i = 0; i < runs; i++) {
    const one = check(compiler, project);
    if (one.failed !== undefined) return one;
    results.push(one);
  }
  return {
    seconds: median(results.map((r) => r.seconds)),
    wall: median(results.map((r) => r.wall)),
    mib: median(results.map((r) => r.mib)),
  };
}

rmSync(work, { recursive: true, force: true });
const clients = [
  ['Kiln client', kilnApp],
  ['Hono hc', honoApp],
  ['Elysia Eden', elysiaApp],
].filter(([name]) => only.some((wanted) => name.toLowerCase().startsWith(wanted)));
console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model}, ${Math.round(totalmem() / 2 ** 30)} GiB; load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} at start; median of ${runs} runs`,
);
const others = clients.slice(1).map(([name]) => name);
console.log(
  `| routes | checker | ${clients.map(([name]) => `${name}: CPU s (wall) | ${name}: MiB`).join(' | ')} | ${others
    .map((name) => `${name} ÷ Kiln, CPU | ${name} ÷ Kiln, memory`)
    .join(' | ')} |`,
);
console.log(`|---|---|${'---|'.repeat(clients.length * 2 + others.length * 2)}`);
for (const routes of sizes) {
  const projects = clients.map(([name, write]) => write(join(work, `${name.split(' ')[0].toLowerCase()}-${routes}`), routes));
  for (const [name, compiler] of [
    ['tsc 6', tsc],
    ['tsgo 7', tsgo],
  ]) {
    const results = projects.map((project) => measure(compiler, project));
    const cell = (r) =>
      r.failed !== undefined ? [`failed: ${r.failed}`, '—'] : [`${r.seconds.toFixed(2)} (${r.wall.toFixed(1)})`, r.mib.toFixed(0)];
    const [kiln, ...rest] = results;
    const ratios = rest.flatMap((r) =>
      kiln.failed === undefined && r.failed === undefined
        ? [(r.seconds / kiln.seconds).toFixed(1), (r.mib / kiln.mib).toFixed(1)]
        : ['—', '—'],
    );
    console.log(`| ${routes} | ${name} | ${results.flatMap(cell).join(' | ')} | ${ratios.join(' | ')} |`);
  }
}
console.log(
  `load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} at the end`,
);
