// Kiln's class and method decorators are recognised by their type brand, never by name or by the
// file that declares them: an application's own `Get` in src/routes.ts and `Controller` in
// src/controller.ts are left alone, and Kiln's are still found through a namespace import.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type ControllerClass } from '@kiln/core';
import { compileFixture, fixturesDir, parseDiagnostics, root, type Compiled } from './support/compile-fixture.js';

const outDir = join(root, 'build', 'transformer-fixtures', 'own-decorators');
let compiled: Compiled;

test.before(async () => {
  compiled = await compileFixture(join(fixturesDir, 'own-decorators'), outDir);
});

test("an app's own Get and Controller (src/routes.ts, src/controller.ts) produce no KILN diagnostic", () => {
  assert.equal(parseDiagnostics(compiled.output), [], compiled.output);
  assert.is(compiled.exitCode, 0, compiled.output);
});

test("the app's own decorators run as written, and Kiln's beside them get a compiled binder", async () => {
  const app = (await import(pathToFileURL(join(outDir, 'src', 'app.js')).href)) as {
    KilnRoutes: ControllerClass;
    KilnRoutesAgain: ControllerClass;
    Screen: ControllerClass;
  };
  const { cacheHints } = (await import(pathToFileURL(join(outDir, 'src', 'routes.js')).href)) as { cacheHints: Map<string, string> };
  const { screens } = (await import(pathToFileURL(join(outDir, 'src', 'controller.js')).href)) as { screens: string[] };
  assert.equal(
    [...cacheHints],
    [
      ['open', '/:id'],
      ['close', '/:id'],
    ],
  );
  assert.equal(screens, ['/']);
  const server = createServer({ controllers: [app.KilnRoutes, app.KilnRoutesAgain] });
  const reply = await server.fetch(new Request('http://localhost/kiln/7'));
  assert.equal(await reply.json(), { id: 7 });
  // Kiln's Get imported under another name: its route is compiled (the parameter converted to a number).
  const again = await server.fetch(new Request('http://localhost/kiln-again/8'));
  assert.equal(await again.json(), { again: 8 });
});

test.run();
