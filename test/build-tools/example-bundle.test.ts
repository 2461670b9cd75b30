// The deploy bundles of the example app: `npm run bundle` in examples/ (esbuild + @kiln/core/esbuild)
// writes one ES module with Kiln's runtime and the typia validators in it; started with plain
// `node`, it serves the example's routes with their compiled binding and validation, and so it
// does on Bun and Deno (app.listen() on Bun.serve / Deno.serve); the worker bundle does on workerd.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from '../support/server.js';
import { root, run, serve, type Served } from './support/fixture-project.js';
import { runtimeBinary, serveWorkers } from '../runtimes/support/served-runtimes.js';

const examples = join(root, 'examples');
let server: Served;

test.before(async () => {
  const bundled = await run('npm', ['run', 'bundle'], examples);
  assert.is(bundled.code, 0, bundled.output);
  assert.match(
    bundled.output,
    'Bundled examples/ into dist-bundle/server.mjs and dist-bundle/worker.mjs with esbuild + @kiln/core/esbuild',
  );
  server = await serve(['dist-bundle/server.mjs'], examples);
});

test.after(() => server?.stop());

test('the bundle is one file: no import of @kiln/core or typia is left', () => {
  const bundle = readFileSync(join(examples, 'dist-bundle', 'server.mjs'), 'utf8');
  assert.not.match(bundle, /from ["'](@kiln\/core|typia)/);
  assert.match(bundle, 'function kiln$bind_BooksController_list(');
});

test('typed query parameters are converted and checked', async () => {
  const reply = await request(server.base, '/books?genre=history&tags=rome&after=2000-01-01&sort=desc&limit=5');
  assert.is(reply.status, 200);
  assert.equal(
    reply.json().map((b: { title: string }) => b.title),
    ['SPQR'],
  );
  const wrong = await request(server.base, '/books/x');
  assert.equal([wrong.status, wrong.json().message], [400, "Parameter 'id' expected number, got 'x'"]);
});

test('the typia validator of the POST body is in the bundle', async () => {
  const reply = await request(server.base, '/books', {
    method: 'POST',
    headers: { 'x-api-key': 'let-me-in', 'content-type': 'application/json' },
    body: JSON.stringify({ title: '', author: 'A', genre: 'fiction', tags: [], published: '1979', price: -1 }),
  });
  assert.is(reply.status, 400);
  assert.is(
    reply.json().message,
    'Invalid request body: $input.title expected string & MinLength<1>, got ""; $input.published expected string & Format<"date">, got "1979"; $input.price expected number & Minimum<0>, got -1',
  );
});

test('a custom decorator and a route without parameters are served', async () => {
  assert.equal((await request(server.base, '/health')).json(), { status: 'ok' });
  assert.is((await request(server.base, '/whoami', { headers: { 'x-forwarded-for': '198.51.100.7' } })).json().ip, '198.51.100.7');
});

/** What every runtime must answer alike: a compiled binder's 400, typia's 400 and a plain route. */
async function assertServes(base: string, where: string): Promise<void> {
  assert.equal((await request(base, '/health')).json(), { status: 'ok' }, where);
  const wrong = await request(base, '/books/x');
  assert.equal([wrong.status, wrong.json().message], [400, "Parameter 'id' expected number, got 'x'"], where);
  const invalid = await request(base, '/books', {
    method: 'POST',
    headers: { 'x-api-key': 'let-me-in', 'content-type': 'application/json' },
    body: JSON.stringify({ title: '', author: 'A', genre: 'fiction', tags: [], published: '1979-01-01', price: 1 }),
  });
  assert.equal(
    [invalid.status, invalid.json().message],
    [400, 'Invalid request body: $input.title expected string & MinLength<1>, got ""'],
    where,
  );
  const document = await request(base, '/openapi.json');
  assert.is(document.json().info.title, 'Bookshop', where);
}

for (const runtime of ['bun', 'deno'] as const) {
  test(`the same bundle serves on ${runtime === 'bun' ? 'Bun' : 'Deno'}`, async () => {
    const args =
      runtime === 'deno'
        ? ['run', '--allow-net', '--allow-read', '--allow-env', '--allow-sys', 'dist-bundle/server.mjs']
        : ['dist-bundle/server.mjs'];
    const served = await serve(args, examples, runtimeBinary(runtime));
    try {
      await assertServes(served.base, runtime);
      assert.is((await request(served.base, '/docs')).status, 200, 'the docs page, from swagger-ui-dist on the file system');
    } finally {
      served.stop();
    }
  });
}

test('the worker bundle serves on workerd, the OpenAPI document bundled in', async () => {
  const bundle = readFileSync(join(examples, 'dist-bundle', 'worker.mjs'), 'utf8');
  assert.not.match(bundle, /from ["']node:/);
  const served = await serveWorkers({ example: 'worker.mjs' }, join(examples, 'dist-bundle'));
  try {
    await assertServes(served.bases.example!, 'workerd');
  } finally {
    served.stop();
  }
});

test('class names survive bundling: the route table names the controllers as written', () => {
  assert.match(server.output(), /GET\s+\/books\/:id\/availability\s+BooksController\.availability\n/);
  assert.match(server.output(), /GET\s+\/whoami\s+MetaController\.whoami\n/);
});

test.run();
