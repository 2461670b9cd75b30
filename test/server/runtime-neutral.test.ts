// The @kiln/core entry and the modules the transformer's generated code imports run on any
// runtime with web Request/Response: no module they load imports a `node:` module. Node's
// listener is loaded by listen() on Node only, and takes node:http from the runtime.
import { STATUS_CODES } from 'node:http';
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, createServer, Get, HttpError, KilnError, Param } from '@kiln/core';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const Neutral = suite('runtime-neutral core');

const staticImport = /^\s*(?:import|export)\s[^;]*?from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm;
const anyImport = /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:from|import)\s*['"]([^'"]+)['"]/g;

/** Every module a file loads at import time (static imports, followed), as paths under dist/. */
function staticGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const visit = (file: string): void => {
    if (graph.has(file)) return;
    const imports = [...readFileSync(file, 'utf8').matchAll(staticImport)].map((match) => (match[1] ?? match[2])!);
    graph.set(file, imports);
    for (const specifier of imports) if (specifier.startsWith('.')) visit(join(dirname(file), specifier));
  };
  visit(entry);
  return graph;
}

for (const entry of ['dist/src/index.js', 'dist/src/binding/index.js']) {
  Neutral(`${entry} loads no node: module at import time`, () => {
    const graph = staticGraph(join(root, entry));
    assert.ok(graph.size > (entry.includes('binding') ? 5 : 40), `the graph was followed (${graph.size} modules)`);
    const offenders = [...graph].flatMap(([file, imports]) =>
      imports
        .filter((specifier) => specifier.startsWith('node:') || !specifier.startsWith('.'))
        .map((s) => `${relative(root, file)} imports ${s}`),
    );
    assert.equal(offenders, []);
  });
}

Neutral('no module of the core imports a node: module, even lazily; the listeners take them from the runtime', () => {
  const graph = staticGraph(join(root, 'dist/src/index.js'));
  const listeners = ['node/node-listener.js', 'bun/bun-listener.js', 'deno/deno-listener.js'].map((name) =>
    join(root, 'dist/src/adapter', name),
  );
  for (const file of [...graph.keys(), ...listeners]) {
    const specifiers = [...readFileSync(file, 'utf8').matchAll(anyImport)].map((match) => (match[1] ?? match[2])!);
    assert.equal(
      specifiers.filter((specifier) => specifier.startsWith('node:')),
      [],
      relative(root, file),
    );
  }
});

@Controller('/fail')
class FailingController {
  @Get('/:status')
  fail(@Param('status') status: number): never {
    throw new HttpError(status, 'failed');
  }
}

// Kiln's one phrase table follows Node's, except 422: RFC 9110 calls it "Unprocessable Content", as the OpenAPI document does.
const rfc9110Phrases: Record<string, string> = { 422: 'Unprocessable Content' };

Neutral("an error body's reason phrase is Node's for every error status Node names (RFC 9110's for 422)", async () => {
  const app = createServer({ controllers: [FailingController] });
  const statuses = Object.keys(STATUS_CODES)
    .map(Number)
    .filter((status) => status >= 400);
  assert.ok(statuses.length > 30);
  for (const status of statuses) {
    const response = await app.fetch(new Request(`http://localhost/fail/${status}`));
    assert.is(response.status, status);
    assert.equal(await response.json(), { error: rfc9110Phrases[status] ?? STATUS_CODES[status], message: 'failed' }, String(status));
  }
  await app.close();
});

Neutral('listen() on a runtime without a listener (workerd) refuses with KILN014', async () => {
  const app = createServer({ controllers: [] });
  const runtime = globalThis as { navigator?: unknown };
  const original = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
  Object.defineProperty(globalThis, 'navigator', { value: { userAgent: 'Cloudflare-Workers' }, configurable: true });
  try {
    await app.listen(0, '127.0.0.1');
    assert.unreachable('listen() should have rejected');
  } catch (error) {
    assert.instance(error, KilnError);
    assert.is((error as KilnError).code, 'KILN014');
    assert.match((error as Error).message, 'export default { fetch: app.fetch }');
  } finally {
    if (original === undefined) delete runtime.navigator;
    else Object.defineProperty(globalThis, 'navigator', original);
  }
  await app.close();
});

Neutral.run();
