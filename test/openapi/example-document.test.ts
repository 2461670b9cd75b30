// The example app documents itself: built with tspc and its tsconfig's `openapi` option, the
// document passes an independent OpenAPI 3.1 validator, and every route of the example answers
// real requests over a socket exactly as the document it serves describes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { KilnServer } from '@kiln/core';
import { root } from '../transformer/support/compile-fixture.js';
import { buildExample } from '../support/example-build.js';
import { request } from '../support/server.js';
import { assertValidOpenApi, type Contract, operationsOf, type Sample } from './support/openapi-contract.js';
import { type ServedContract, serveContract } from './support/served-contract.js';
import { renderDocsPage } from './support/headless-docs.js';

const Example = suite('OpenAPI contract: the example app');
const outDir = join(root, 'build', 'openapi-example');
let app: KilnServer;
let base = '';
let written: Record<string, any>;
let served: Record<string, any>;
let contract: Contract;
let send: ServedContract['send'];

Example.before(async () => {
  const built = await buildExample(outDir);
  assert.is(built.exitCode, 0, built.output);
  written = JSON.parse(readFileSync(join(outDir, 'openapi.json'), 'utf8'));
  const { createApp } = await import(pathToFileURL(join(outDir, 'dist', 'app.js')).href);
  app = createApp();
  ({ base, served, contract, send } = await serveContract(app));
});

Example.after(() => app.close());

Example("the example's document passes an independent OpenAPI 3.1 validator (@readme/openapi-parser)", async () => {
  await assertValidOpenApi(written);
  await assertValidOpenApi(served);
  assert.equal(written.info, { title: 'Bookshop', version: '1.0.0' });
});

Example('the document describes every route of the example, and the server serves it as written', () => {
  // Kiln's own routes are not documented, nor the chat rooms' WebSocket route (OpenAPI does not describe WebSockets).
  assert.ok(app.routes.some((r) => r.controller.name === 'ChatController'));
  const routes = app.routes
    .filter((r) => !['KilnDocs', 'KilnHealth', 'ChatController'].includes(r.controller.name))
    .map((r) => `${r.method} ${r.path.replace(/:([^/]+)/g, '{$1}')}`)
    .sort();
  assert.equal(
    operationsOf(written)
      .map((o) => `${o.method} ${o.path}`)
      .sort(),
    routes,
  );
  // RequireApiKey describes itself: the served document gains its API-key scheme on the two write routes.
  assert.equal(served.components.securitySchemes, {
    apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'A staff key' },
    bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
  });
  // jwtGuard describes itself too: the orders route asks for a bearer token.
  assert.equal(served.paths['/orders'].get.security, [{ bearerAuth: [] }]);
  assert.equal(served.paths['/books'].post.security, [{ apiKey: [] }]);
  assert.equal(served.paths['/books/{id}'].delete.security, [{ apiKey: [] }]);
  assert.ok(
    written.paths['/books'].post.parameters.some((p: { name: string }) => p.name === 'x-api-key'),
    'the build documents the header use() reads',
  );
  assert.is(served.paths['/books'].post.parameters, undefined, 'served: the scheme sends it, so it is not asked for twice');
  const { components: _w, paths: writtenPaths, ...writtenRest } = written;
  const { components: _s, paths: servedPaths, ...servedRest } = served;
  assert.equal(servedRest, writtenRest);
  assert.equal(servedPaths['/books'].get, writtenPaths['/books'].get, 'a route without the guard is served as written');
});

Example('the OpenAPI page shows the generated document of GET /books/{id}/availability verbatim', () => {
  const page = readFileSync(join(root, 'docs', 'guide', 'openapi.md'), 'utf8');
  const shown = /<!-- openapi-example:start -->\s*```json\n([\s\S]*?)\n```\s*<!-- openapi-example:end -->/.exec(page);
  assert.ok(shown, 'docs/guide/openapi.md has the openapi-example block');
  assert.equal(JSON.parse(shown![1]!), { '/books/{id}/availability': written.paths['/books/{id}/availability'] });
});

Example("a multipart route's 413 and 415 name the uploads limits and multipart/form-data, a JSON route's maxBodySize", async () => {
  const cover = served.paths['/books/{id}/cover'].post.responses;
  assert.is(
    cover['413'].description,
    "Payload Too Large: a file, a field or the whole body is past the server's uploads limits (maxFileSize, maxFieldSize, maxFiles, maxFields, maxTotalSize)",
  );
  assert.is(cover['415'].description, 'Unsupported Media Type: the body is not multipart/form-data');
  const create = served.paths['/books'].post.responses;
  assert.is(create['413'].description, "Payload Too Large: the body is larger than the server's maxBodySize");
  assert.is(create['415'].description, 'Unsupported Media Type: the body is not JSON, a urlencoded form or text');
  // What the document says is what the route answers.
  const json = await request(base, '/books/1/cover', {
    method: 'POST',
    headers: { ...key, 'content-type': 'application/json' },
    body: '{}',
  });
  assert.is(json.status, 415);
  assert.match(json.json().message, /reads multipart\/form-data/);
});

const key = { 'x-api-key': 'let-me-in' };
const clerkKey = { 'x-api-key': 'clerk-key' };
/** A multipart body for the cover upload (fetch writes its Content-Type with the boundary). */
function coverForm(): FormData {
  const form = new FormData();
  form.append('cover', new File([new Uint8Array(2048)], 'cover.png', { type: 'image/png' }));
  form.append('caption', 'First edition');
  return form;
}
const book = { title: 'Dune', author: 'Frank Herbert', genre: 'fiction', tags: ['sf'], published: '1965-08-01', price: 9.5 };
const samples: Record<string, Sample[]> = {
  'BooksController.list': [
    { path: '/books?genre=science&tags=popular&after=2000-01-01&sort=desc&limit=10&maxPrice=20', status: 200 },
    { path: '/books', status: 200 },
  ],
  'BooksController.byIds': [{ path: '/books/by-id?ids=1&ids=99', status: 200 }],
  'BooksController.get': [
    { path: '/books/1', headers: { 'accept-language': 'fr' }, status: 200 },
    { path: '/books/999', status: 404 },
  ],
  'BooksController.availability': [
    { path: '/books/2/availability?stock=0', status: 200 },
    { path: '/books/999/availability', status: 404 },
  ],
  'BooksController.delivery': [
    { path: '/books/1/delivery', status: 200 },
    { path: '/books/999/delivery', status: 404 },
    { path: '/books/1/delivery?delayMs=3000', status: 503 },
  ],
  'BooksController.create': [
    { method: 'POST', path: '/books', headers: { ...key, 'content-type': 'application/json' }, body: JSON.stringify(book), status: 201 },
    { method: 'POST', path: '/books', headers: { 'content-type': 'application/json' }, body: JSON.stringify(book), status: 401 },
    {
      method: 'POST',
      path: '/books',
      headers: { ...clerkKey, 'content-type': 'application/json' },
      body: JSON.stringify(book),
      status: 201,
    },
    {
      method: 'POST',
      path: '/books',
      headers: { ...key, 'content-type': 'application/json' },
      body: JSON.stringify({ ...book, price: -1 }),
      status: 400,
    },
  ],
  'BooksController.remove': [
    { method: 'DELETE', path: '/books/3', headers: key, status: 204 },
    { method: 'DELETE', path: '/books/2', headers: clerkKey, status: 403 },
    { method: 'DELETE', path: '/books/3', headers: key, status: 404 },
  ],
  'BooksController.exportCsv': [
    { path: '/books/1/export.csv', status: 200 },
    { path: '/books/999/export.csv', status: 404 },
  ],
  'BooksController.uploadCover': [
    { method: 'POST', path: '/books/1/cover', headers: key, body: coverForm(), status: 201 },
    { method: 'POST', path: '/books/999/cover', headers: key, body: coverForm(), status: 404 },
  ],
  'AccountController.login': [
    {
      method: 'POST',
      path: '/account/login',
      headers: { 'content-type': 'application/json' },
      body: '{"user":"ada","password":"reader-password"}',
      status: 200,
    },
    {
      method: 'POST',
      path: '/account/login',
      headers: { 'content-type': 'application/json' },
      body: '{"user":"ada","password":"nope"}',
      status: 401,
    },
    {
      method: 'POST',
      path: '/account/login',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
      body: '{"user":"ada","password":"reader-password"}',
      status: 403,
    },
  ],
  'AccountController.me': [{ path: '/account/me', status: 401 }],
  'AccountController.logout': [{ method: 'POST', path: '/account/logout', status: 200 }],
  'AccountController.token': [{ method: 'POST', path: '/account/token', status: 401 }],
  'OrdersController.list': [
    { path: '/orders', status: 401 },
    { path: '/orders', headers: { authorization: 'Bearer not.a.token' }, status: 401 },
  ],
  // Only the refusal: a sample's answer is read to its end, and an event stream has none
  // (its events are held over HTTP by test/transformer/example-app.test.ts).
  'BookChangesController.follow': [{ path: '/book-changes', headers: { 'last-event-id': 'soon' }, status: 400 }],
  'MetaController.health': [{ path: '/health', status: 200 }],
  'MetaController.whoami': [{ path: '/whoami', headers: { 'user-agent': 'contract-test' }, status: 200 }],
};

Example('every route of the example answers real requests exactly as its document describes', async () => {
  await contract.assertSamplesAnswered(samples, send);
});

Example("a request the example's document says is invalid gets the 400 it describes", async () => {
  const made = await contract.assertInvalidRequestsRefused(samples, send);
  assert.ok(made >= 12, `only ${made} invalid requests were derived from the document`);
});

Example('the docs page renders every operation of the example in headless Chromium, with nothing but 127.0.0.1 reachable', async () => {
  const operations = operationsOf(served);
  const page = await renderDocsPage(`${base}/docs`, operations.length);
  assert.is(page.title, 'Bookshop — API reference');
  assert.equal(page.errors, [], 'no script error on the page');
  assert.match(page.policy ?? '', "default-src 'none'; script-src 'self'", 'the page runs under its restrictive Content-Security-Policy');
  assert.equal(page.violations, [], 'and that policy refused nothing Swagger UI needs');
  assert.equal(page.blocked, [], 'the page asked for nothing outside 127.0.0.1');
  assert.is(page.operations.length, operations.length);
  assert.equal(
    page.operations.map((o) => `${o.method} ${o.path} ${o.summary}`).sort(),
    operations.map((o) => `${o.method} ${o.path} ${o.operation.summary}`).sort(),
  );
});

Example.run();
