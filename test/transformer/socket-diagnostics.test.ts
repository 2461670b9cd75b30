// Build-time side of WebSocket routes: fixtures compiled with the real tspc. Without typia's
// transformer a typed message is KILN185; with it, a message type holding a Date is KILN187 and a
// route generated code cannot name is KILN186. Each `// expect: KILNnnn` marker must be reported at
// its line, and nothing else.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { assertMarkersReported, fixtureBuilds } from './support/compile-fixture.js';

const compile = fixtureBuilds('sockets');

test('without typia in plugins, a typed message type is KILN185 at its route (an unknown one is not)', async () => {
  const built = await compile('no-typia');
  assertMarkersReported(built);
  assert.match(
    built.compiled.output,
    "KILN185: Chat.typed declares its messages as ChatIn, checked by a typia validator generated at build time, but typia's transformer is not configured",
  );
});

test('with typia: a Date in a message type is KILN187, a route module scope cannot name is KILN186', async () => {
  const built = await compile('diagnostics');
  assertMarkersReported(built);
  assert.match(built.compiled.output, "KILN187: 'at' in the message type of Chat.dated is a Date, which a JSON message never carries");
});

test.run();
