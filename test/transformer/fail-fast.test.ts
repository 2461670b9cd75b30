// Built without @kiln/core/transformer, an app with bound parameters must not start: createServer
// fails fast with a message that names the route and says how to configure the plugin.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createServer, KilnError, type ControllerClass } from '@kiln/core';
import { compileFixture, fixturesDir, parseDiagnostics, root } from './support/compile-fixture.js';

test('without the plugin, tspc reports TS1206 on the parameter decorator', async () => {
  const outDir = join(root, 'build', 'transformer-fixtures', 'no-plugin');
  const compiled = await compileFixture(join(fixturesDir, 'no-plugin'), outDir);
  assert.equal(
    parseDiagnostics(compiled.output).map((d) => `${d.line}:${d.column} ${d.code}`),
    ['5:26 TS1206', '11:18 TS1206', '11:43 TS1206', '11:69 TS1206', '11:98 TS1206'],
  );
});

async function startupError(controller: string): Promise<KilnError> {
  const outDir = join(root, 'build', 'transformer-fixtures', 'no-plugin');
  const app = (await import(pathToFileURL(join(outDir, 'app.js')).href)) as Record<string, ControllerClass>;
  try {
    createServer({ controllers: [app[controller]!] });
  } catch (caught) {
    assert.instance(caught, KilnError);
    return caught as KilnError;
  }
  throw new Error(`${controller} started without compiled binders`);
}

test('without the plugin, a route with a bound parameter refuses to start (KILN003) and says how to build', async () => {
  const error = await startupError('Users');
  assert.is(error.code, 'KILN003');
  assert.match(
    error.message,
    'Route GET /users/search (Users.search) has no compiled binder: @kiln/core/transformer did not run on this file',
  );
  assert.match(error.message, '{ "transform": "@kiln/core/transformer", "transformProgram": true }');
  assert.match(error.message, 'build with tspc');
  assert.match(error.message, '@kiln/core/esbuild');
  assert.match(error.message, 'node --import @kiln/core/register');
});

test('without the plugin, a handler whose four parameters all have defaults (length 0) refuses to start', async () => {
  const error = await startupError('Pages');
  assert.is(error.code, 'KILN003');
  assert.match(error.message, 'Route GET /pages (Pages.list) has no compiled binder');
});

test('without the plugin, even a route without parameters refuses to start: the app was not compiled', async () => {
  const error = await startupError('Health');
  assert.is(error.code, 'KILN003');
  assert.match(error.message, 'Route GET /health (Health.check) has no compiled binder');
});

test.run();
