// @Sse() routes in the OpenAPI document: text/event-stream, with each event described in
// x-itemSchema as OpenAPI 3.2's itemSchema does (JSON data with its contentSchema, or text), the
// document still a valid OpenAPI 3.1 one; and the fixture serves what its document says.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createServer, type KilnServer } from '@kiln/core';
import { compileFixture, root } from '../transformer/support/compile-fixture.js';
import { assertValidOpenApi } from './support/openapi-contract.js';
import { loadClient } from '../client/support/load-client.js';
import { readEvents } from '@kiln/core/client';

const outDir = join(root, 'build', 'openapi-event-stream');
let document: Record<string, any>;
let app: KilnServer;
let base = '';

test.before(async () => {
  const built = await compileFixture(join(root, 'test', 'openapi', 'fixtures', 'event-stream'), join(outDir, 'dist'));
  assert.is(built.exitCode, 0, built.output);
  document = JSON.parse(readFileSync(join(outDir, 'openapi.json'), 'utf8'));
  const fixture = await import(pathToFileURL(join(outDir, 'dist', 'app.js')).href);
  app = createServer({ controllers: fixture.controllers });
  base = `http://127.0.0.1:${(await app.listen(0, '127.0.0.1')).port}`;
});
test.after(() => app?.close());

const fields = { event: { type: 'string' }, id: { type: 'string' }, retry: { type: 'integer', minimum: 0 } };

test('the document stays a valid OpenAPI 3.1 document', async () => {
  await assertValidOpenApi(document);
});

test('a JSON event stream: text/event-stream whose x-itemSchema gives each event its data as JSON of the event type', () => {
  const operation = document.paths['/streams/quotes'].get;
  assert.equal(Object.keys(operation.responses['200'].content), ['text/event-stream']);
  const media = operation.responses['200'].content['text/event-stream'];
  assert.equal(media.schema, { type: 'string' });
  assert.equal(media['x-itemSchema'], {
    type: 'object',
    properties: {
      data: { type: 'string', contentMediaType: 'application/json', contentSchema: { $ref: '#/components/schemas/Quote' } },
      ...fields,
    },
  });
  assert.equal(document.components.schemas.Quote.required.sort(), ['price', 'symbol']);
  assert.equal(
    operation.parameters.map((p: { name: string; in: string }) => `${p.in} ${p.name}`),
    ['header last-event-id'],
  );
});

test('a text event stream: its data is the text itself', () => {
  const media = document.paths['/streams/answer'].post.responses['200'].content['text/event-stream'];
  assert.equal(media['x-itemSchema'].properties.data, { type: 'string' });
});

test('the served events fit the description: data JSON of a Quote, nothing undeclared', async () => {
  const text = await (await fetch(`${base}/streams/quotes`, { headers: { 'last-event-id': '10' } })).text();
  assert.is(text, ':\n\ndata: {"symbol":"KLN","price":11}\n\nevent: quote\nid: 12\ndata: {"symbol":"ÉTÉ","price":12}\n\n');
});

type StreamsClient = {
  streams: {
    quotes(input?: { 'last-event-id'?: number }): Promise<{ ok: boolean; status: number; data: AsyncGenerator<unknown> }>;
    answer(input: { body: { text: string } }): Promise<{ ok: boolean; data: AsyncGenerator<unknown> }>;
  };
};

test('the typed client yields the typed data of each event, over a socket and through app.fetch', async () => {
  const { createClient } = await loadClient<{ createClient(options: unknown): StreamsClient }>(join(outDir, 'client.ts'));
  for (const client of [createClient({ baseUrl: base }), createClient(app.fetch)]) {
    const quotes = await client.streams.quotes({ 'last-event-id': 40 });
    assert.ok(quotes.ok);
    const received: unknown[] = [];
    for await (const quote of quotes.data) received.push(quote);
    assert.equal(received, [
      { symbol: 'KLN', price: 41 },
      { symbol: 'ÉTÉ', price: 42 },
    ]);
    const answer = await client.streams.answer({ body: { text: 'streamed word by word' } });
    const words: unknown[] = [];
    for await (const word of answer.data) words.push(word);
    assert.equal(words, ['streamed', 'word', 'by', 'word']);
  }
});

test('the client reads events split anywhere across chunks: CRLF, CR and LF, comments, fields, a BOM, an unfinished last event', async () => {
  const wire =
    '\uFEFF:\r\n\r\nid: 1\r\ndata: {"a":\r\ndata: 1}\r\n\r\nevent: x\rdata:2\r\rdata\n\n: note\ndata: 3\n\ndata: never dispatched\n';
  const expected = [{ a: 1 }, 2, '', 3];
  const bytes = new TextEncoder().encode(wire);
  for (let cut = 0; cut <= bytes.length; cut++) {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, cut));
        controller.enqueue(bytes.slice(cut));
        controller.close();
      },
    });
    const got: unknown[] = [];
    for await (const data of readEvents(new Response(body), 'text')) got.push(data);
    assert.equal(
      got,
      expected.map((value) => (typeof value === 'string' ? value : JSON.stringify(value).replace('{"a":1}', '{"a":\n1}'))),
      `cut at ${cut}`,
    );
  }
});

test.run();
