// app.close() with event streams open: an @Sse() stream never ends by itself, so close() ends each
// one cleanly when it stops accepting (as WebSockets get their 1001) instead of waiting out
// shutdownTimeout and cutting it. The client sees a complete stream (its EventSource reconnects
// to another instance), the generator's finally runs and req.signal is aborted with the reason.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get, Req, Sse, type KilnRequest } from '@kiln/core';
import { TopicHub } from '@kiln/core/realtime';
import { start } from '../support/server.js';

const hub = new TopicHub<{ n: number }>();
const finished: string[] = [];
const reasons: unknown[] = [];

@Controller('/feed')
class FeedController {
  @Get('/')
  @Sse({ heartbeat: 0 })
  async *live(@Req() req: KilnRequest): AsyncGenerator<{ n: number }> {
    req.signal.addEventListener('abort', () => reasons.push(req.signal.reason));
    try {
      for await (const message of hub.subscribe('feed', { signal: req.signal })) yield message;
    } finally {
      finished.push('generator');
    }
  }
}

/** Reads a stream to its end: its text, and whether it ended cleanly or was cut; `seen` holds the text so far. */
async function readAll(body: ReadableStream<Uint8Array>, seen: string[], index: number): Promise<{ text: string; end: string }> {
  const decoder = new TextDecoder();
  seen[index] = '';
  try {
    for await (const chunk of body) seen[index] += decoder.decode(chunk, { stream: true });
    return { text: seen[index]!, end: 'clean' };
  } catch (error) {
    return { text: seen[index]!, end: `cut: ${(error as Error).message}` };
  }
}

/** Waits (a bounded number of turns) until `ready()` holds. */
async function until(ready: () => boolean, what: string): Promise<void> {
  for (let turn = 0; turn < 200 && !ready(); turn++) await new Promise((resolve) => setTimeout(resolve, 25));
  assert.ok(ready(), what);
}

test('close() ends open event streams cleanly, before its shutdownTimeout, and aborts their req.signal', async () => {
  const server = await start({ controllers: [FeedController], shutdownTimeout: 8_000, logger: { level: 'silent' } });
  const responses = await Promise.all([fetch(`${server.base}/feed`), fetch(`${server.base}/feed`)]);
  const seen: string[] = [];
  const readers = responses.map((response, index) => readAll(response.body!, seen, index));
  await until(() => hub.subscriberCount('feed') === 2, 'both generators subscribed');
  await hub.publish('feed', { n: 1 });
  await until(() => seen.every((text) => text.includes('data: ')), 'both clients received the event');
  await server.close();
  const streams = await Promise.all(readers);
  assert.equal(streams, [
    { text: ':\n\ndata: {"n":1}\n\n', end: 'clean' },
    { text: ':\n\ndata: {"n":1}\n\n', end: 'clean' },
  ]);
  assert.equal(finished, ['generator', 'generator']);
  assert.is(reasons.length, 2);
  for (const reason of reasons) {
    assert.is((reason as DOMException).name, 'AbortError');
    assert.is((reason as DOMException).message, 'The server is shutting down: the event stream was ended');
  }
});

test.run();
