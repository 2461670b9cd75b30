// The build follows createServer's `errors` option: a fixture built with the plugin entry's
// `errors: 'problem+json'` has a document whose error answers are application/problem+json
// (KilnProblemDetails, KilnValidationProblem, a declared error's data as extension members, a
// subclass's literal type and title) and a typed client whose declared errors are problem bodies;
// the same fixture built with the default has the default error body. The served document
// rewrites what middlewares and health describe, refuses a build of the other format (KILN060),
// and the running app's answers, through the client over a socket and through app.fetch, match it.
// KILN177 (the option) and KILN178 (data problem details cannot describe) are build errors.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync, cpSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createServer, type KilnServer } from '@kiln/core';
import { compileFixture, parseDiagnostics, root } from '../transformer/support/compile-fixture.js';
import { loadClient } from '../client/support/load-client.js';
import { request } from '../support/server.js';
import { assertValidOpenApi, Contract } from './support/openapi-contract.js';
import { run } from '../build-tools/support/fixture-project.js';

type Json = Record<string, any>;
const Problems = suite('OpenAPI and the typed client with errors: problem+json');
const fixture = join(root, 'test', 'openapi', 'fixtures', 'problem');
const outDir = join(root, 'build', 'openapi-problem');
const problemType = 'application/problem+json';
let problemDocument: Json;
let jsonDocument: Json;
let controllers: unknown[];

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

Problems.before(async () => {
  const [problem, json] = await Promise.all([
    compileFixture(fixture, join(outDir, 'dist')),
    compileFixture(join(fixture, 'tsconfig.json-errors.json'), join(outDir, 'json', 'dist')),
  ]);
  assert.is(problem.exitCode, 0, problem.output);
  assert.is(json.exitCode, 0, json.output);
  problemDocument = JSON.parse(readFileSync(join(outDir, 'openapi.json'), 'utf8'));
  jsonDocument = JSON.parse(readFileSync(join(outDir, 'json', 'openapi.json'), 'utf8'));
  controllers = (await import(pathToFileURL(join(outDir, 'dist', 'app.js')).href)).controllers;
});

Problems('problem mode: every error response of the document is application/problem+json with KilnProblemDetails', async () => {
  await assertValidOpenApi(problemDocument);
  const schemas = problemDocument.components.schemas;
  assert.ok(schemas.KilnProblemDetails !== undefined && schemas.KilnValidationProblem !== undefined);
  assert.is(schemas.KilnErrorBody, undefined, 'the default body is not described');
  assert.equal(schemas.KilnProblemDetails.required, ['type', 'title', 'status', 'detail']);
  const create = problemDocument.paths['/books'].post.responses;
  assert.equal(create['400'].content, { [problemType]: { schema: ref('KilnValidationProblem') } });
  for (const status of ['413', '415', '429'])
    assert.equal(create[status].content, { [problemType]: { schema: ref('KilnProblemDetails') } }, status);
  assert.equal(create['200'].content, { 'application/json': { schema: ref('Book') } }, 'a success stays JSON');
  assert.equal(problemDocument.paths['/books/{id}'].get.responses['404'].content[problemType].schema, {
    allOf: [ref('KilnProblemDetails'), ref('Missing')],
  });
  assert.equal(problemDocument.paths['/books/{id}'].delete.responses['409'].content[problemType].schema, {
    allOf: [ref('KilnProblemDetails'), { type: 'object', properties: { data: { type: 'array', items: ref('Loan') } }, required: ['data'] }],
  });
  assert.equal(problemDocument.paths['/books/{id}/buy'].post.responses['402'].content[problemType].schema.allOf.slice(0, 2), [
    ref('KilnProblemDetails'),
    {
      type: 'object',
      properties: { type: { const: 'https://example.com/problems/out-of-credit' }, title: { const: 'You do not have enough credit' } },
      required: ['type', 'title'],
    },
  ]);
});

Problems('default mode: the same app is described with the default error body, and no problem details', async () => {
  await assertValidOpenApi(jsonDocument);
  const schemas = jsonDocument.components.schemas;
  assert.ok(schemas.KilnErrorBody !== undefined);
  assert.is(schemas.KilnProblemDetails, undefined);
  assert.equal(jsonDocument.paths['/books'].post.responses['429'].content, { 'application/json': { schema: ref('KilnErrorBody') } });
  assert.equal(Object.keys(jsonDocument.paths['/books/{id}'].get.responses['404'].content), ['application/json']);
});

Problems(
  'the served document describes what middlewares and health add as problem details; a build of the other format is KILN060',
  async () => {
    const app = createServer({
      controllers: controllers as never,
      errors: 'problem+json',
      health: { openapi: true },
      docs: { document: join(outDir, 'openapi.json') },
      logger: { level: 'silent' },
    });
    const served = (await app.fetch(new Request('http://localhost/openapi.json')).then((r) => r.json())) as Json;
    await assertValidOpenApi(served);
    const problem = { [problemType]: { schema: ref('KilnProblemDetails') } };
    assert.equal(served.paths['/books'].post.responses['429'].content, problem, "the limiter's 429");
    assert.equal(served.paths['/books/{id}'].delete.responses['401'].content, problem, "the API-key guard's 401");
    assert.equal(served.paths['/readyz'].get.responses['503'].content, problem, "readiness's 503");
    assert.equal(Object.keys(served.paths['/readyz'].get.responses['200'].content), ['application/json']);

    const mismatch = (errors: 'json' | 'problem+json', document: string) => () =>
      createServer({ controllers: controllers as never, errors, docs: { document } });
    assert.throws(
      mismatch('json', join(outDir, 'openapi.json')),
      (error: Error & { code?: string }) =>
        error.code === 'KILN060' &&
        error.message ===
          "The OpenAPI document describes errors as 'problem+json', but createServer has errors: 'json': give the plugin entry (tsconfig.json or the bundler plugin) the same errors option and rebuild (docs: guide/openapi.md)",
    );
    assert.throws(mismatch('problem+json', join(outDir, 'json', 'openapi.json')), (error: { code?: string }) => error.code === 'KILN060');
    createServer({ controllers: controllers as never, docs: { document: join(outDir, 'json', 'openapi.json') } });
  },
);

interface ProblemClient {
  createClient(options: unknown): {
    books: Record<
      string,
      (input?: unknown, init?: RequestInit) => Promise<{ ok: boolean; status: number; error?: any; data?: any; response: Response }>
    >;
  };
}

Problems(
  'the generated client answers each declared error as a typed problem body, over a socket and through app.fetch; every answer matches the document',
  async () => {
    const { createClient } = await loadClient<ProblemClient>(join(outDir, 'client.ts'));
    const text = readFileSync(join(outDir, 'client.ts'), 'utf8');
    assert.match(text, 'Failed<404, KilnProblemDetails & Missing>');
    assert.match(text, 'Failed<400, KilnValidationProblem>');
    assert.match(text, 'type: "https://example.com/problems/out-of-credit";');
    const jsonClient = readFileSync(join(outDir, 'json', 'client.ts'), 'utf8');
    assert.not.match(jsonClient, 'KilnProblemDetails');

    const servers: KilnServer[] = [];
    const app = (): KilnServer => {
      const created = createServer({
        controllers: controllers as never,
        errors: 'problem+json',
        strictValidation: true,
        docs: { document: join(outDir, 'openapi.json') },
        logger: { level: 'silent' },
      });
      servers.push(created);
      return created;
    };
    const socketApp = app();
    const base = `http://127.0.0.1:${(await socketApp.listen(0, '127.0.0.1')).port}`;
    const contract = new Contract((await request(base, '/openapi.json')).json());
    try {
      for (const [transport, options] of [
        ['socket', { baseUrl: base }],
        ['app.fetch', app().fetch],
      ] as const) {
        const api = createClient(options);
        const held = async (
          method: string,
          path: string,
          answer: { response: Response; status: number; error?: unknown; data?: unknown },
        ) => {
          const body = answer.error ?? answer.data;
          const reply = {
            status: answer.status,
            headers: answer.response.headers,
            text: body === undefined ? '' : JSON.stringify(body),
            json: () => body,
          };
          contract.assertAnswer(contract.operationFor(method, path), reply, `${transport} ${method} ${path}`);
        };

        const missing = await api.books.get!({ id: 9 });
        assert.equal([missing.ok, missing.status], [false, 404], transport);
        assert.is(missing.response.headers.get('content-type'), problemType);
        assert.equal(missing.error, {
          type: 'about:blank',
          title: 'Not Found',
          status: 404,
          detail: 'No book 9',
          instance: '/books/9',
          id: 9,
        });
        await held('GET', '/books/9', missing);

        const credit = await api.books.buy!({ id: 2 });
        assert.equal(credit.error, {
          type: 'https://example.com/problems/out-of-credit',
          title: 'You do not have enough credit',
          status: 402,
          detail: 'Your balance is 30',
          instance: '/books/2/buy',
          balance: 30,
        });
        await held('POST', '/books/2/buy', credit);

        const loaned = await api.books.remove!({ id: 1 }, { headers: { 'x-api-key': 'a-key-of-sixteen-chars-or-more' } });
        assert.is(loaned.status, 409);
        assert.equal(loaned.error.data, [{ holder: 'ann', until: '2026-12-01' }]);
        await held('DELETE', '/books/1', loaned);

        const invalid = await api.books.create!({ body: { title: 'No pages' } });
        assert.is(invalid.status, 400);
        assert.equal(invalid.error.errors, [{ path: '$input.pages', expected: 'number' }]);
        await held('POST', '/books', invalid);

        const found = await api.books.get!({ id: 1 });
        assert.equal([found.ok, found.data], [true, { id: 1, title: 'Dune', pages: 412 }]);

        // One more create passes (the limit is 2 a window), the next is the limiter's 429.
        assert.is((await api.books.create!({ body: { title: 'Emma', pages: 474 } })).status, 200);
        const limited = await api.books.create!({ body: { title: 'Ulysses', pages: 730 } });
        assert.is(limited.status, 429, transport);
        assert.is(limited.response.headers.get('content-type'), problemType);
        assert.is(limited.error.title, 'Too Many Requests');
        await held('POST', '/books', limited);
      }
    } finally {
      await Promise.all(servers.map((server) => server.close()));
    }
  },
);

for (const [name, compiler] of [
  ['tsc (TypeScript 6)', join(root, 'node_modules', 'typescript', 'bin', 'tsc')],
  ['tsgo (TypeScript 7)', join(root, 'node_modules', 'typescript-7', 'bin', 'tsc')],
] as const) {
  Problems(
    `${name}: a declared error's problem body is typed at the call (its members, the data's, a literal type), and a misuse is an error on its line`,
    async () => {
      const consumer = join(outDir, 'consumer');
      const fixtureDir = join(root, 'test', 'openapi', 'fixtures', 'problem-consumer');
      mkdirSync(consumer, { recursive: true });
      cpSync(fixtureDir, consumer, { recursive: true });
      copyFileSync(join(outDir, 'client.ts'), join(consumer, 'client.ts'));
      const ran = await run(compiler, ['--noEmit', '-p', consumer, '--pretty', 'false'], consumer);
      const errors = ran.output.split('\n').flatMap((line) => {
        const match = /^(.+?)\((\d+),\d+\): error (TS\d+):/.exec(line.trim());
        return match === null ? [] : [`${match[1]!.split('/').pop()}:${match[2]} ${match[3]}`];
      });
      const marked = readFileSync(join(fixtureDir, 'calls.ts'), 'utf8')
        .split('\n')
        .flatMap((text, i) => {
          const marker = /\/\/ error: (TS\d+)$/.exec(text);
          return marker === null ? [] : [`calls.ts:${i + 1} ${marker[1]}`];
        });
      assert.is(marked.length, 4);
      assert.equal(errors, marked, ran.output);
    },
  );
}

Problems(
  'KILN177: an errors option of the plugin entry that is neither format; KILN178: declared data problem details cannot describe, at its @throws',
  async () => {
    const diagnostics = join(root, 'test', 'openapi', 'fixtures', 'problem-diagnostics');
    const option = await compileFixture(
      join(diagnostics, 'tsconfig.invalid-option.json'),
      join(root, 'build', 'openapi-problem-diagnostics', 'option'),
    );
    assert.is(option.exitCode, 2, option.output);
    assert.match(
      option.output,
      `KILN177: errors must be 'json' (the default error body) or 'problem+json' (RFC 9457 problem details), as createServer's errors option says; got "problem"`,
    );
    const data = await compileFixture(diagnostics, join(root, 'build', 'openapi-problem-diagnostics', 'data'));
    const reported = parseDiagnostics(data.output).map((d) => `${d.file.split('/').pop()}:${d.line} ${d.code}`);
    const source = readFileSync(join(diagnostics, 'kiln178-problem-data.ts'), 'utf8').split('\n');
    const expected = source.flatMap((line, i) => (line.includes('expect: KILN178') ? [`kiln178-problem-data.ts:${i + 1} KILN178`] : []));
    assert.equal(reported, expected);
    assert.ok(
      data.output.includes(
        "KILN178: the data of the 409 that ClashesController.reserved declares has a member named 'status', which problem details leave out (type, title, status, detail and instance are Kiln's): rename it",
      ),
    );
  },
);

Problems.run();
