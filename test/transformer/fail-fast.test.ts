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
  assert.equal(parseDiagnostics(compiled.output).map((d) => `${d.line}:${d.column} ${d.code}`), ['5:26 TS1206']);

  const { Users } = (await import(pathToFileURL(join(outDir, 'app.js')).href)) as { Users: ControllerClass };
  let error: unknown;
  try {
    createServer({ controllers: [Users] });
  } catch (caught) {
    error = caught;
  }
  assert.instance(error, KilnError);
  assert.is((error as KilnError).code, 'KILN003');
  const message = (error as Error).message;
  assert.match(message, 'Route GET /users/search (Users.search) declares 1 parameter(s) but has no compiled binder');
  assert.match(message, '{ "transform": "@kiln/core/transformer", "transformProgram": true }');
  assert.match(message, 'build with tspc');
});

test.run();
