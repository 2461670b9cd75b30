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

test.run();
