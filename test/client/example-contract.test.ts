// The contract of the typed client: the client the build writes for the example app
// (examples/tsconfig.json: "client") calls every route of the running app, over a socket and
// through app.fetch, and gets exactly what a hand-written fetch of the same request gets; every
// error a route declares comes back as a typed value (`ok: false`, its status, its body).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { KilnServer } from '@kiln/core';
import { root } from '../transformer/support/compile-fixture.js';
import { buildExample } from '../support/example-build.js';

const Contract = suite('typed client: the example app, against hand-written fetch');
const outDir = join(root, 'build', 'client-example');
// The generated module is built by this suite; its types are held by types.test.ts.
type Generated = any;
let createApp: () => KilnServer;
let createClient: (options?: unknown) => Generated;
const apps: KilnServer[] = [];

Contract.before(async () => {
  const built = await buildExample(outDir);
  assert.is(built.exitCode, 0, built.output);
  process.env.LOG_LEVEL = 'silent';
  ({ createApp } = await import(pathToFileURL(join(outDir, 'dist', 'app.js')).href));
  ({ createClient } = await import(pathToFileURL(join(outDir, 'dist', 'client.js')).href));
});

Contract.after(async () => {
  await Promise.all(apps.map((app) => app.close()));
});

/** Two fresh apps (the store is per app): one answers the client, one the hand-written requests, in the same order. */
async function pair(
  transport: 'socket' | 'fetch',
): Promise<{ api: Generated; send: (path: string, init?: RequestInit) => Promise<Response> }> {
  const [forClient, forHand] = [createApp(), createApp()];
  apps.push(forClient, forHand);
  if (transport === 'fetch') {
    return { api: createClient(forClient.fetch), send: (path, init) => forHand.fetch(new Request(`http://localhost${path}`, init)) };
  }
  const [a, b] = await Promise.all([forClient.listen(0, '127.0.0.1'), forHand.listen(0, '127.0.0.1')]);
  return {
    api: createClient({ baseUrl: `http://127.0.0.1:${a.port}` }),
    send: (path, init) => fetch(`http://127.0.0.1:${b.port}${path}`, init),
  };
}

/** The client's answer is the hand-written one: status, media type, and the body as read. */
async function same(result: Generated, response: Response, what: string): Promise<void> {
  assert.is(result.status, response.status, what);
  assert.is(result.response.headers.get('content-type'), response.headers.get('content-type'), what);
  const text = await response.text();
  const body = text === '' ? undefined : /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : text;
  if (result.ok && result.data instanceof Response) assert.is(await result.data.text(), text, what);
  else assert.equal(result.ok ? result.data : result.error, body, what);
  assert.is(result.ok, response.ok, what);
}

const newBook = { title: 'Dune', author: 'Frank Herbert', genre: 'fiction', tags: ['classic'], published: '1965-08-01', price: 9.5 };
const json = { 'content-type': 'application/json' };

for (const transport of ['socket', 'fetch'] as const) {
  Contract(`every route of the example, through the client and by hand (${transport})`, async () => {
    const { api, send } = await pair(transport);
    const called = new Set<string>();
    const check = async (name: string, result: Promise<Generated>, path: string, init?: RequestInit) => {
      called.add(name);
      await same(await result, await send(path, init), `${name} (${transport})`);
    };
    await check('meta.health', api.meta.health(), '/health');
    await check('meta.whoami', api.meta.whoami({ 'user-agent': 'kiln-client' }), '/whoami', { headers: { 'user-agent': 'kiln-client' } });
    await check(
      'books.list',
      api.books.list({ genre: 'science', tags: ['popular'], after: new Date('2000-01-01'), sort: 'desc', limit: 10, maxPrice: 100 }),
      '/books?genre=science&tags=popular&after=2000-01-01T00:00:00.000Z&sort=desc&limit=10&maxPrice=100',
    );
    await check('books.byIds', api.books.byIds({ ids: [1, 3, 99] }), '/books/by-id?ids=1&ids=3&ids=99');
    await check('books.get', api.books.get({ id: 1, 'accept-language': 'fr' }), '/books/1', { headers: { 'accept-language': 'fr' } });
    await check('books.availability', api.books.availability({ id: 1, stock: 2 }), '/books/1/availability?stock=2');
    await check('books.exportCsv', api.books.exportCsv({ id: 1 }), '/books/1/export.csv');
    await check('books.delivery', api.books.delivery({ id: 2, delayMs: 5 }), '/books/2/delivery?delayMs=5');
    await check('books.create', api.books.create({ 'x-api-key': 'clerk-key', body: newBook }), '/books', {
      method: 'POST',
      headers: { ...json, 'x-api-key': 'clerk-key' },
      body: JSON.stringify(newBook),
    });
    const cover = () => new File([new Uint8Array([137, 80, 78, 71, 1, 2, 3])], 'cover.png', { type: 'image/png' });
    const form = new FormData();
    form.append('cover', cover());
    form.append('caption', 'front');
    await check(
      'books.uploadCover',
      api.books.uploadCover({ id: 1, 'x-api-key': 'clerk-key', body: { cover: cover(), caption: 'front' } }),
      '/books/1/cover',
      {
        method: 'POST',
        headers: { 'x-api-key': 'clerk-key' },
        body: form,
      },
    );
    await check('books.remove', api.books.remove({ id: 4, 'x-api-key': 'let-me-in' }), '/books/4', {
      method: 'DELETE',
      headers: { 'x-api-key': 'let-me-in' },
    });
    const credentials = { user: 'ada', password: 'reader-password' };
    await check('account.login', api.account.login({ body: credentials }), '/account/login', {
      method: 'POST',
      headers: json,
      body: JSON.stringify(credentials),
    });
    await check('account.me', api.account.me(), '/account/me');
    await check('account.token', api.account.token(), '/account/token', { method: 'POST' });
    await check('account.logout', api.account.logout(), '/account/logout', { method: 'POST' });
    await check('orders.list', api.orders.list(), '/orders');
    // An event stream never ends by itself: its head is held here, its events by example-app.test.ts.
    called.add('bookChanges.follow');
    const stream = await api.bookChanges.follow({ 'last-event-id': 3 });
    const byHand = await send('/book-changes', { headers: { 'last-event-id': '3' } });
    assert.equal(
      [stream.ok, stream.status, stream.response.headers.get('content-type')],
      [byHand.ok, byHand.status, byHand.headers.get('content-type')],
      `bookChanges.follow (${transport})`,
    );
    assert.is(byHand.headers.get('content-type'), 'text/event-stream');
    await Promise.all([stream.response.body?.cancel(), byHand.body?.cancel()]);
    // Kiln's own routes (the docs page, /livez and /readyz) and WebSocket routes (the chat rooms) are
    // not in the document, so not in the client.
    const all = apps[apps.length - 1]!.routes;
    assert.ok(all.some((r) => r.controller.name === 'ChatController'));
    const routes = all.filter((r) => !['KilnDocs', 'KilnHealth', 'ChatController'].includes(r.controller.name));
    assert.is(called.size, routes.length, 'one call per route of the app');
    assert.equal(
      [...called].sort(),
      Object.entries(api)
        .flatMap(([group, functions]) => Object.keys(functions as object).map((name) => `${group}.${name}`))
        .sort(),
      'every function of the client was called',
    );
  });

  Contract(`every declared error comes back as a typed value, the same as by hand (${transport})`, async () => {
    const { api, send } = await pair(transport);
    const notFound = await api.books.get({ id: 999 });
    // Declared with `@throws {BookNotFound}`: its data is typed (`error.data.id` is a number).
    assert.equal(
      [notFound.ok, notFound.status, notFound.error],
      [false, 404, { error: 'Not Found', message: 'Book 999 not found', data: { id: 999 } }],
    );
    await same(notFound, await send('/books/999'), '404');

    const badQuery = await api.books.list({ limit: 'many' as never });
    assert.equal([badQuery.ok, badQuery.status, badQuery.error.message], [false, 400, "Parameter 'limit' expected number, got 'many'"]);
    await same(badQuery, await send('/books?limit=many'), '400 query');

    const badBody = { ...newBook, price: -1 };
    const invalid = await api.books.create({ 'x-api-key': 'clerk-key', body: badBody });
    assert.is(invalid.status, 400);
    assert.equal(invalid.error.data.errors[0].path, '$input.price');
    await same(
      invalid,
      await send('/books', { method: 'POST', headers: { ...json, 'x-api-key': 'clerk-key' }, body: JSON.stringify(badBody) }),
      '400 body',
    );

    const noKey = await api.books.create({ body: newBook });
    assert.equal([noKey.ok, noKey.status, noKey.error.message], [false, 401, 'Missing or wrong x-api-key header']);
    await same(noKey, await send('/books', { method: 'POST', headers: json, body: JSON.stringify(newBook) }), '401');

    const clerk = await api.books.remove({ id: 1, 'x-api-key': 'clerk-key' });
    assert.equal([clerk.ok, clerk.status, clerk.error.message], [false, 403, 'This needs the role manager']);
    await same(clerk, await send('/books/1', { method: 'DELETE', headers: { 'x-api-key': 'clerk-key' } }), '403');

    const huge = { ...newBook, title: 'x'.repeat(1_100_000) };
    const tooLarge = await api.books.create({ 'x-api-key': 'clerk-key', body: huge });
    assert.equal([tooLarge.ok, tooLarge.status, tooLarge.error.error], [false, 413, 'Payload Too Large']);
    await same(
      tooLarge,
      await send('/books', { method: 'POST', headers: { ...json, 'x-api-key': 'clerk-key' }, body: JSON.stringify(huge) }),
      '413',
    );

    const xml = { 'content-type': 'application/xml', 'x-api-key': 'clerk-key' };
    const unsupported = await api.books.create({ body: newBook }, { headers: xml });
    assert.equal([unsupported.ok, unsupported.status, unsupported.error.error], [false, 415, 'Unsupported Media Type']);
    await same(unsupported, await send('/books', { method: 'POST', headers: xml, body: JSON.stringify(newBook) }), '415');
  });
}

Contract('an answer the route does not declare is thrown as a ClientError, with its status and body', async () => {
  const api = createClient(async () => Response.json({ error: 'Bad Gateway', message: 'upstream down' }, { status: 502 }));
  const { ClientError } = await import('@kiln/core/client');
  try {
    await api.meta.health();
    assert.unreachable('a 502 is not declared');
  } catch (error) {
    assert.instance(error, ClientError);
    assert.equal(
      [(error as InstanceType<typeof ClientError>).status, (error as InstanceType<typeof ClientError>).body],
      [502, { error: 'Bad Gateway', message: 'upstream down' }],
    );
  }
});

Contract("per-call RequestInit: an aborted signal rejects the call; default headers are sent, a call's own win", async () => {
  const seen: Headers[] = [];
  const api = createClient({
    headers: () => ({ 'x-api-key': 'default', 'x-trace': 'a' }),
    fetch: async (request: Request) => {
      seen.push(request.headers);
      request.signal.throwIfAborted();
      return Response.json({ status: 'ok' });
    },
  });
  await api.meta.health(undefined, { headers: { 'x-trace': 'b' } });
  assert.equal([seen[0]!.get('x-api-key'), seen[0]!.get('x-trace')], ['default', 'b']);
  const controller = new AbortController();
  controller.abort();
  try {
    await api.meta.health(undefined, { signal: controller.signal });
    assert.unreachable('the signal was aborted');
  } catch (error) {
    assert.is((error as Error).name, 'AbortError');
  }
});

Contract.run();
