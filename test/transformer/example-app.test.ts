// `npm start`'s second half, for real: examples/start.mjs builds the example app with tspc and
// @kiln/core/transformer as a consumer would, serves it (here on an ephemeral port) and prints the routes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from '../support/server.js';
import { connect, refusal } from '../support/socket-client.js';
import { root } from './support/compile-fixture.js';

let child: ChildProcess;
let output = '';
let base = '';
/** The OTLP/HTTP collector the example is configured with (OTEL_EXPORTER_OTLP_ENDPOINT): what it received. */
let collector: Server;
const exported: { path: string; body: any }[] = [];

test.before(async () => {
  collector = createHttpServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      exported.push({ path: incoming.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString() || '{}') });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  child = spawn(process.execPath, [join(root, 'examples', 'start.mjs')], {
    cwd: root,
    // Spans batched for 50 ms rather than the SDK's default 5 s.
    env: { ...process.env, PORT: '0', OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: '50' },
  });
  base = await new Promise<string>((resolve, reject) => {
    // A hang guard, not a time limit: start.mjs builds the example first, minutes on a loaded machine.
    const timer = setTimeout(() => reject(new Error(`example did not start:\n${output}`)), 300_000);
    const read = (chunk: Buffer) => {
      output += chunk;
      const match = /listening on http:\/\/localhost:(\d+)/.exec(output);
      if (match !== null && output.includes('Try:')) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${match[1]}`);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => reject(new Error(`example exited with ${code}:\n${output}`)));
  });
});

test.after(() => {
  child.kill('SIGTERM');
  collector.close();
});

test('prints the route table', () => {
  assert.match(output, /GET\s+\/books\/:id\/availability\s+BooksController\.availability/);
  assert.match(output, /DELETE\s+\/books\/:id\s+BooksController\.remove/);
  assert.match(output, /GET\s+\/whoami\s+MetaController\.whoami/);
  assert.match(output, /GET\s+\/rooms\/:room\s+ChatController\.join/);
});

test('typed query parameters: enum, array, Date, literal union, number', async () => {
  const reply = await request(base, '/books?genre=history&tags=rome&after=2000-01-01&sort=desc&limit=5');
  assert.is(reply.status, 200);
  assert.equal(
    reply.json().map((b: { title: string }) => b.title),
    ['SPQR'],
  );
  const wrong = await request(base, '/books?genre=poetry');
  assert.equal([wrong.status, wrong.json().message], [400, "Parameter 'genre' expected one of [fiction, science, history], got 'poetry'"]);
});

test('numeric enum, number[] and a Response download', async () => {
  assert.equal((await request(base, '/books/2/availability?stock=0')).json(), { id: 2, stock: 'Out' });
  assert.equal(
    (await request(base, '/books/by-id?ids=3&ids=99')).json().map((b: { id: number } | null) => b?.id ?? null),
    [3, null],
  );
  const csv = await request(base, '/books/1/export.csv');
  assert.is(csv.headers.get('content-disposition'), 'attachment; filename="book-1.csv"');
  assert.match(csv.text, /^id,title,author,price\n1,/);
});

test('class middleware binds a header; @HttpStatus sets 201 and 204', async () => {
  const denied = await request(base, '/books', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
  assert.is(denied.status, 401);
  const book = { title: 'Kindred', author: 'Octavia E. Butler', genre: 'fiction', tags: [], published: '1979-06-01', price: 10 };
  const created = await request(base, '/books', {
    method: 'POST',
    body: JSON.stringify(book),
    headers: { 'content-type': 'application/json', 'x-api-key': 'let-me-in' },
  });
  assert.is(created.status, 201);
  const removed = await request(base, `/books/${created.json().id}`, { method: 'DELETE', headers: { 'x-api-key': 'let-me-in' } });
  assert.is(removed.status, 204);
});

test("GET /book-changes streams the catalogue's changes as typed, numbered server-sent events", async () => {
  const controller = new AbortController();
  const stream = await fetch(`${base}/book-changes`, { signal: controller.signal, headers: { 'last-event-id': '10' } });
  assert.is(stream.status, 200);
  assert.is(stream.headers.get('content-type'), 'text/event-stream');
  const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  while (!text.includes(':\n\n')) text += (await reader.read()).value;
  const book = { title: 'Dawn', author: 'Octavia E. Butler', genre: 'fiction', tags: ['sf'], published: '1987-05-01', price: 9 };
  const created = await request(base, '/books', {
    method: 'POST',
    body: JSON.stringify(book),
    headers: { 'content-type': 'application/json', 'x-api-key': 'let-me-in' },
  });
  const id = created.json().id as number;
  await request(base, `/books/${id}`, { method: 'DELETE', headers: { 'x-api-key': 'let-me-in' } });
  while (!text.includes('event: removed')) text += (await reader.read()).value;
  while (!text.endsWith('\n\n')) text += (await reader.read()).value;
  controller.abort();
  assert.is(
    text,
    ':\n\n' +
      `event: added\nid: 11\ndata: {"kind":"added","book":{"title":"Dawn","author":"Octavia E. Butler","genre":"fiction","tags":["sf"],"published":"1987-05-01T00:00:00.000Z","price":9,"id":${id}}}\n\n` +
      `event: removed\nid: 12\ndata: {"kind":"removed","id":${id}}\n\n`,
  );
});

test('typed body: typia validates it, and the 400 names every failing path', async () => {
  const book = { title: '', author: 'Anon', genre: 'poetry', tags: [], published: '1979', price: -1, isbn: 'x' };
  const reply = await request(base, '/books', {
    method: 'POST',
    body: JSON.stringify(book),
    headers: { 'content-type': 'application/json', 'x-api-key': 'let-me-in' },
  });
  assert.is(reply.status, 400);
  assert.equal(
    reply.json().data.errors.map((e: { path: string }) => e.path),
    ['$input.genre', '$input.title', '$input.published', '$input.price', '$input.isbn'],
  );
  assert.match(reply.json().message, /^Invalid request body: \$input\.genre expected /);
});

test('a cover upload (multipart/form-data) and compressed answers', async () => {
  const form = new FormData();
  form.append('cover', new File([new Uint8Array(100_000)], 'cover.png', { type: 'image/png' }));
  form.append('caption', 'First edition');
  const uploaded = await request(base, '/books/1/cover', { method: 'POST', body: form, headers: { 'x-api-key': 'let-me-in' } });
  assert.is(uploaded.status, 201);
  assert.equal(uploaded.json(), { bookId: 1, name: 'cover.png', type: 'image/png', size: 100_000, caption: 'First edition' });
  const tooLarge = new FormData();
  tooLarge.append('cover', new File([new Uint8Array(2 * 1024 * 1024 + 1)], 'huge.png', { type: 'image/png' }));
  const refused = await request(base, '/books/1/cover', { method: 'POST', body: tooLarge, headers: { 'x-api-key': 'let-me-in' } });
  assert.is(refused.status, 413);
  // fetch decodes gzip itself: the headers say it was compressed, the text is the JSON list.
  const list = await request(base, '/books', { headers: { 'accept-encoding': 'gzip' } });
  assert.is(list.headers.get('content-encoding'), 'gzip');
  assert.is(list.headers.get('vary'), 'Accept-Encoding');
  assert.ok(Array.isArray(list.json()));
});

test('req.signal: the delivery estimate asks the courier with it; past the route’s 1 s handler timeout, 503 and the wait is dropped', async () => {
  const quick = await request(base, '/books/2/delivery');
  assert.equal([quick.status, quick.json()], [200, { id: 2, days: 3 }]);
  const slow = await request(base, '/books/2/delivery?delayMs=5000');
  assert.equal([slow.status, slow.json().message], [503, 'The handler did not answer within 1000 ms']);
  assert.is((await request(base, '/books/999/delivery')).status, 404);
});

test('with OTEL_EXPORTER_OTLP_ENDPOINT set, the example traces: its server spans reach the collector, its log lines carry the ids', async () => {
  const traceId = '5bf92f3577b34da6a3ce929d0e0e4736';
  const reply = await request(base, '/books/3/delivery', { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
  assert.is(reply.status, 200);
  assert.match(output, /Tracing: spans sent to http:\/\/127\.0\.0\.1:\d+/);
  type OtlpSpan = { name: string; traceId: string; parentSpanId: string; spanId: string };
  let span: OtlpSpan | undefined;
  for (let waited = 0; waited < 10_000 && span === undefined; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const spans: OtlpSpan[] = exported.flatMap((post) =>
      (post.body.resourceSpans ?? []).flatMap((resource: any) => resource.scopeSpans.flatMap((scope: any) => scope.spans)),
    );
    span = spans.find((candidate) => candidate.traceId === traceId);
  }
  assert.ok(span, 'the span reached the collector');
  assert.is(span.name, 'GET /books/:id/delivery');
  assert.is(span.parentSpanId, '00f067aa0ba902b7');
  assert.ok(exported.every((post) => post.path === '/v1/traces'));
  const line = output.split('\n').find((text) => text.includes('"request completed"') && text.includes(traceId));
  assert.ok(line, "requestLogger's line carries the trace");
  assert.match(line, new RegExp(`"span_id":"${span.spanId}"`));
});

test('custom @Ip() decorator', async () => {
  // The example listens on all interfaces (dual stack), where Node reports IPv4 clients as ::ffff:127.0.0.1.
  assert.match((await request(base, '/whoami', { headers: { 'user-agent': 'kiln-test' } })).json().ip, /^(::ffff:)?127\.0\.0\.1$/);
});

test('the docs (Controllers and parameters) show the binders the build really wrote', () => {
  const page = readFileSync(join(root, 'docs', 'guide', 'controllers.md'), 'utf8');
  const start = page.indexOf('## What the transformer writes');
  assert.ok(start >= 0, 'docs/guide/controllers.md has the section');
  const docs = page.slice(start, page.indexOf('\n## ', start + 1));
  const emitted = readFileSync(join(root, 'examples', 'dist', 'books', 'books-controller.js'), 'utf8');
  const blocks = [...docs.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!);
  assert.is(blocks.length, 2);
  for (const block of blocks) assert.ok(emitted.includes(block), `not in the emitted file:\n${block}`);
  assert.ok(
    emitted.includes(
      "_list_decorators = [kiln$b.compiledBinder(kiln$bind_BooksController_list), kiln$b.compiledSerializer(kiln$serialize_0), Get('/')];",
    ),
  );
});

test('sessions: sign in (a new sealed session), me, a bearer token for /orders, sign out; cross-site sign-in refused', async () => {
  const json = { 'content-type': 'application/json' };
  const wrong = await request(base, '/account/login', { method: 'POST', headers: json, body: '{"user":"ada","password":"nope"}' });
  assert.equal([wrong.status, wrong.json().message], [401, 'Wrong user or password']);
  const crossSite = await request(base, '/account/login', {
    method: 'POST',
    headers: { ...json, 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
    body: '{"user":"ada","password":"reader-password"}',
  });
  assert.is(crossSite.status, 403);
  assert.equal(crossSite.headers.getSetCookie(), []);
  const login = await request(base, '/account/login', {
    method: 'POST',
    headers: json,
    body: '{"user":"ada","password":"reader-password"}',
  });
  assert.equal([login.status, login.json()], [200, { reader: 'ada' }]);
  const line = login.headers.getSetCookie()[0]!;
  assert.match(line, /^sid=[A-Za-z0-9_-]+; Max-Age=28800; Path=\/; HttpOnly; SameSite=Lax$/);
  const cookie = line.slice(0, line.indexOf(';'));
  assert.equal((await request(base, '/account/me', { headers: { cookie } })).json(), { reader: 'ada' });
  assert.is((await request(base, '/account/me')).status, 401);

  const issued = await request(base, '/account/token', { method: 'POST', headers: { cookie } });
  const token: string = issued.json().token;
  assert.equal((await request(base, '/orders', { headers: { authorization: `Bearer ${token}` } })).json(), { reader: 'ada', orders: [] });
  const noToken = await request(base, '/orders');
  assert.equal([noToken.status, noToken.headers.get('www-authenticate')], [401, 'Bearer']);
  const forged = `${token.slice(0, token.lastIndexOf('.'))}.${'A'.repeat(43)}`;
  assert.is((await request(base, '/orders', { headers: { authorization: `Bearer ${forged}` } })).status, 401);

  const logout = await request(base, '/account/logout', { method: 'POST', headers: { cookie } });
  assert.match(logout.headers.getSetCookie()[0]!, /^sid=; Max-Age=0;/);
});

test('secureHeaders(): on a route, a 404 and an error; the docs page keeps its own policy', async () => {
  for (const [path, status] of [
    ['/health', 200],
    ['/nowhere', 404],
    ['/books?genre=poetry', 400],
  ] as const) {
    const reply = await request(base, path);
    assert.is(reply.status, status, path);
    assert.is(reply.headers.get('x-content-type-options'), 'nosniff', path);
    assert.is(reply.headers.get('strict-transport-security'), 'max-age=31536000; includeSubDomains', path);
    assert.is(reply.headers.get('x-frame-options'), 'DENY', path);
    assert.match(reply.headers.get('content-security-policy') ?? '', /^default-src 'self'/, path);
  }
  assert.match((await request(base, '/docs')).headers.get('content-security-policy') ?? '', /^default-src 'none'; script-src 'self'/);
});

test("chat rooms: signed-in readers in one room receive each other's typed messages, another room nothing; a bad message closes with 1007; another site's page is refused 403", async () => {
  assert.match(output, /Chat: ws:\/\/localhost:\d+\/rooms\/<room>, for readers signed in with POST \/account\/login/);
  const ws = base.replace(/^http/, 'ws');
  const anonymous = await refusal(`${ws}/rooms/sci-fi`);
  assert.equal([anonymous.status, JSON.parse(anonymous.body).message], [401, 'Sign in to chat']);
  const login = await request(base, '/account/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"user":"ada","password":"reader-password"}',
  });
  const line = login.headers.getSetCookie()[0]!;
  const headers = { cookie: line.slice(0, line.indexOf(';')) };
  // Cross-site WebSocket hijacking: another site's page whose handshake carries the reader's cookie is refused.
  const hijack = await refusal(`${ws}/rooms/sci-fi`, { headers, origin: 'https://evil.example' });
  assert.equal(
    [hijack.status, JSON.parse(hijack.body)],
    [403, { error: 'Forbidden', message: 'Origin https://evil.example is not allowed for this WebSocket route' }],
  );
  const sibling = await refusal(`${ws}/rooms/sci-fi`, { headers, origin: base.replace('127.0.0.1', 'localhost') });
  assert.is(sibling.status, 403, 'another host name of the same machine is another origin');
  // The bookshop's own page (its origin is the server's) joins.
  const ownPage = await connect(`${ws}/rooms/own`, { headers, origin: base });
  assert.equal(((await ownPage.next()) as { text: string }).text, 'ada joined own');
  await ownPage.close();
  const first = await connect(`${ws}/rooms/sci-fi`, { headers });
  const second = await connect(`${ws}/rooms/sci-fi`, { headers });
  const elsewhere = await connect(`${ws}/rooms/history`, { headers });
  type Post = { from: string; text: string; at: string };
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
  for (const [client, room] of [
    [first, 'sci-fi'],
    [second, 'sci-fi'],
    [elsewhere, 'history'],
  ] as const) {
    const joined = (await client.next()) as Post;
    assert.equal([joined.from, joined.text], ['bookshop', `ada joined ${room}`]);
    assert.match(joined.at, iso);
  }
  // One after the other: two connections' messages have no order between them.
  for (const [sender, text] of [
    [first, 'Kindred next?'],
    [second, 'Yes, Kindred'],
  ] as const) {
    sender.send({ text });
    for (const client of [first, second]) {
      const post = (await client.next()) as Post;
      assert.equal(Object.keys(post), ['from', 'text', 'at']);
      assert.equal([post.from, post.text], ['ada', text]);
      assert.match(post.at, iso);
    }
  }
  first.send({ text: 42 });
  assert.equal(await first.closed, { code: 1007, reason: '$input.text: expected string' });
  // The other room received nothing of this one; its socket is still open.
  elsewhere.send({ text: 'still here' });
  assert.equal(((await elsewhere.next()) as Post).text, 'still here');
  assert.equal([elsewhere.messages, second.messages], [[], []]);
  await Promise.all([second.close(), elsewhere.close()]);
});

test('the login limiter counts failed sign-ins only: successes are taken back, the failure past the quota is refused (429), a right password too', async () => {
  // last in this file: it locks 127.0.0.1 out of /account/login for 15 minutes
  const json = { 'content-type': 'application/json' };
  const signIn = async (password: string) => {
    const reply = await request(base, '/account/login', { method: 'POST', headers: json, body: JSON.stringify({ user: 'ada', password }) });
    assert.is(reply.headers.get('ratelimit-policy'), '"login";q=5;w=900');
    return `${reply.status} ${reply.headers.get('ratelimit')?.replace(/;t=\d+$/, '') ?? '-'}`;
  };
  // The earlier test's failures (a wrong password, a cross-site attempt) are in the window. A
  // success is counted on arrival (its r= includes it), then taken back: the next one shows the same.
  const first = await signIn('reader-password');
  const left = Number(/^200 "login";r=(\d+)$/.exec(first)?.[1]);
  assert.ok(left >= 2, first);
  for (let i = 0; i < 5; i++) assert.is(await signIn('reader-password'), first, 'successes are not counted');
  const failures: string[] = [];
  for (let i = 0; i <= left; i++) failures.push(await signIn('wrong'));
  assert.equal(
    failures,
    Array.from({ length: left + 1 }, (_, i) => `401 "login";r=${left - i}`),
  );
  const refused = await request(base, '/account/login', { method: 'POST', headers: json, body: '{"user":"ada","password":"wrong"}' });
  assert.is(refused.status, 429);
  assert.is(refused.headers.get('retry-after'), '900');
  assert.equal(refused.json(), { error: 'Too Many Requests', message: 'Rate limit exceeded. Try again in 900 seconds.' });
  // blocked for 15 minutes: the right password is refused too
  assert.is(await signIn('reader-password'), '429 "login";r=0');
});

test.run();
