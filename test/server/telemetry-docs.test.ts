// The "Setting up the SDK (Node)" block of docs/guide/telemetry.md, run verbatim: written to a
// module under build/ (its imports resolve to this checkout's node_modules) and imported, then a
// Kiln app with `telemetry: { api }` must continue the caller's trace with a span of the SDK
// (a new span id, active across the handler's await) and log its ids.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as api from '@opentelemetry/api';
import { Controller, Get, requestLogger, type LogDestination } from '@kiln/core';
import { root } from '../transformer/support/compile-fixture.js';
import { request, start } from '../support/server.js';

@Controller('/shelf')
class ShelfController {
  /** The active span after an await: the one Kiln started, if the context manager carried it. */
  @Get('/')
  async active() {
    await new Promise((resolve) => setTimeout(resolve, 1));
    return { spanId: api.trace.getActiveSpan()?.spanContext().spanId ?? null };
  }
}

test("the page's SDK setup runs as written, and Kiln's spans are the SDK's", async () => {
  const page = readFileSync(join(root, 'docs', 'guide', 'telemetry.md'), 'utf8');
  const block = /```ts\n(\/\/ tracing\.ts\n[\s\S]*?)```/.exec(page)?.[1];
  assert.ok(block, 'the page has the tracing.ts block');
  const folder = join(root, 'build', 'telemetry-docs');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'tracing.mjs'), block);
  await import(pathToFileURL(join(folder, 'tracing.mjs')).href);

  const lines: Record<string, any>[] = [];
  const destination: LogDestination = { write: (line) => void lines.push(JSON.parse(line)) };
  const server = await start({
    controllers: [ShelfController],
    middlewares: [requestLogger()],
    logger: { destination, pino: false },
    telemetry: { api },
  });
  try {
    const traceId = '6bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    const reply = await request(server.base, '/shelf', { headers: { traceparent: `00-${traceId}-${parentId}-01` } });
    assert.is(reply.status, 200);
    const { spanId } = reply.json() as { spanId: string | null };
    assert.ok(spanId !== null && spanId !== parentId, `a span of the SDK was active in the handler, got ${spanId}`);
    for (let waited = 0; waited < 2_000 && !lines.some((line) => line.msg === 'request completed'); waited += 5)
      await new Promise((resolve) => setTimeout(resolve, 5));
    const line = lines.find((entry) => entry.msg === 'request completed');
    assert.ok(line, "requestLogger's line");
    assert.is(line.trace_id, traceId);
    assert.is(line.span_id, spanId);
  } finally {
    await server.close();
  }
});

test.run();
