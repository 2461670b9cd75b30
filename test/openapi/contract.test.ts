// The contract fixture (test/openapi/fixtures/contract: every parameter kind and type of the
// conversion table, typed bodies, nested, recursive and union types, 204, Response routes, a
// rate-limited route) built with tspc and the `openapi` option, served with `docs`, and held to
// its own document over a socket on 127.0.0.1.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createServer, type KilnServer } from '@kiln/core';
import { compileFixture, root } from '../transformer/support/compile-fixture.js';
import { request } from '../support/server.js';
import { assertValidOpenApi, type Contract, operationsOf, type Sample } from './support/openapi-contract.js';
import { type ServedContract, serveContract } from './support/served-contract.js';

const Contracts = suite('OpenAPI contract: the fixture app');
const outDir = join(root, 'build', 'openapi-contract');
const documentFile = join(outDir, 'openapi.json');
let app: KilnServer;
let base = '';
let written: Record<string, any>;
let served: Record<string, any>;
let contract: Contract;
let send: ServedContract['send'];

Contracts.before(async () => {
  const built = await compileFixture(join(root, 'test', 'openapi', 'fixtures', 'contract'), join(outDir, 'dist'));
  assert.is(built.exitCode, 0, built.output);
  const fixture = await import(pathToFileURL(join(outDir, 'dist', 'app.js')).href);
  app = createServer({ controllers: fixture.controllers, strictValidation: true, docs: { document: documentFile } });
  ({ base, served, contract, send } = await serveContract(app));
  written = JSON.parse(readFileSync(documentFile, 'utf8'));
});

Contracts.after(() => app.close());

Contracts('the written and the served documents pass an independent OpenAPI 3.1 validator', async () => {
  await assertValidOpenApi(written);
  await assertValidOpenApi(served);
});

Contracts('every route of the app is one operation of the document, with a unique Controller.method operationId', () => {
  const routes = app.routes
    .filter((r) => r.controller.name !== 'KilnDocs')
    .map((r) => `${r.method} ${r.path.replace(/:([^/]+)/g, '{$1}')}`)
    .sort();
  assert.equal(
    operationsOf(written)
      .map((o) => `${o.method} ${o.path}`)
      .sort(),
    routes,
  );
  const ids = operationsOf(written).map((o) => o.operation.operationId);
  assert.is(new Set(ids).size, ids.length);
  assert.ok(ids.includes('QueryController.scalars') && ids.includes('MiscController.limited'));
});

Contracts(
  'a controller that extends another: the inherited routes are in the document under its own path, with their parameters (issue 34, item 14)',
  async () => {
    assert.equal(
      Object.keys(written.paths)
        .filter((path) => path.startsWith('/drafts'))
        .sort(),
      ['/drafts/{id}', '/drafts/{id}/history', '/drafts/{id}/publish'],
    );
    const inherited = written.paths['/drafts/{id}/publish'].post;
    assert.is(inherited.operationId, 'DraftsController.publish');
    assert.equal(inherited.tags, ['Drafts']);
    assert.equal(
      inherited.parameters.map((p: any) => [p.name, p.in, p.schema]),
      [
        ['id', 'path', { type: 'number' }],
        ['at', 'query', { type: 'string', format: 'date-time' }],
      ],
    );
    assert.is(written.paths['/posts/{id}/publish'].post.operationId, 'PostsController.publish');
    // The served document (createServer with docs started without KILN032) answers for the inherited route too.
    assert.ok(served.paths['/drafts/{id}'].get);
    const reply = await request(base, '/drafts/7');
    assert.is(reply.status, 200);
    assert.equal(reply.json(), { id: 7 });
  },
);

Contracts('parameters: the schema of each row of the conversion table, in, required, default, style', () => {
  const parameters = (path: string, method = 'get') =>
    Object.fromEntries((written.paths[path][method].parameters as any[]).map((p) => [p.name, p]));
  const scalars = parameters('/query/scalars');
  assert.equal(scalars.s, { name: 's', in: 'query', required: false, schema: { type: 'string' } });
  assert.equal(scalars.b.schema, { type: 'boolean' });
  assert.equal(scalars.n.schema, { type: 'number' });
  assert.equal(scalars.d.schema, { type: 'string', format: 'date-time' });
  assert.equal(scalars.o.content, {
    'application/json': {
      schema: {
        type: 'object',
        properties: { a: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } } },
        required: ['a'],
      },
    },
  });
  assert.equal(scalars.e.schema, { type: 'string', enum: ['asc', 'desc'] });
  assert.equal(scalars.ne.schema, { type: 'number', enum: [0, 1, 2] });
  assert.equal(scalars.u.schema, { type: 'string', enum: ['x', 'y'] });
  assert.equal(scalars.nu.schema, { type: 'number', enum: [10, 20] });
  assert.equal(scalars.any.schema, {});
  const arrays = parameters('/query/arrays');
  assert.equal(arrays.ns, {
    name: 'ns',
    in: 'query',
    required: false,
    style: 'form',
    explode: true,
    schema: { type: 'array', items: { type: 'number' } },
  });
  assert.equal(arrays.ds.schema.items, { type: 'string', format: 'date-time' });
  assert.equal(arrays.es.schema.items, { type: 'string', enum: ['asc', 'desc'] });
  assert.equal(arrays.items.schema, { type: 'array', items: { type: 'number' } }, 'the items argument [Number] decides');
  const required = parameters('/query/required');
  assert.equal(required.page, { name: 'page', in: 'query', required: true, description: 'the page, from 1', schema: { type: 'number' } });
  assert.equal(required.size.schema, { type: 'number', default: 20 });
  assert.equal(required.order.schema, { type: 'string', enum: ['asc', 'desc'], default: 'asc' });
  const path = parameters('/params/{n}/{s}/{d}/{e}');
  assert.equal(
    Object.values(path).map((p: any) => [p.in, p.required]),
    [
      ['path', true],
      ['path', true],
      ['path', true],
      ['path', true],
    ],
  );
  const headers = parameters('/headers');
  assert.equal(headers['x-count'], { name: 'x-count', in: 'header', required: true, schema: { type: 'number' } });
  assert.equal(headers['x-ids'], { name: 'x-ids', in: 'header', required: false, schema: { type: 'array', items: { type: 'number' } } });
  assert.is(headers.ip, undefined, 'a request-property decorator is not a request parameter');
  const cookies = parameters('/cookies');
  assert.equal(cookies.theme, { name: 'theme', in: 'cookie', required: true, schema: { type: 'string', enum: ['light', 'dark'] } });
  assert.equal(cookies.visits, { name: 'visits', in: 'cookie', required: false, schema: { type: 'number' } });
  assert.equal(
    cookies.tz,
    { name: 'tz', in: 'cookie', required: false, schema: { type: 'string' } },
    'the type-level form Cookie<T, Name>',
  );
});

Contracts('bodies: typia schemas as shared components with stable, distinct names; media types Kiln accepts', () => {
  const schemas = written.components.schemas;
  assert.equal(written.paths['/people'].post.requestBody, {
    required: true,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPerson' } } },
  });
  assert.equal(schemas.NewPerson.properties.age, { type: 'integer', minimum: 0, maximum: 150 });
  assert.equal(schemas.NewPerson.properties.email, { type: 'string', format: 'email' });
  assert.equal(schemas.NewPerson.properties.previous, { type: 'array', items: { $ref: '#/components/schemas/Address' } });
  assert.equal(schemas.Address.properties.zip, { type: 'string', pattern: '^[0-9]{5}$' });
  assert.equal(schemas.NewPerson.required, ['name', 'email', 'age', 'level', 'address', 'previous', 'born']);
  assert.ok(schemas['Legacy.Address'] && schemas.Address, 'two types named Address are two components');
  assert.equal(
    schemas.Category.properties.children,
    { type: 'array', items: { $ref: '#/components/schemas/Category' } },
    'a recursive type refers to itself',
  );
  const rename = written.paths['/people/{id}'].patch.requestBody;
  assert.equal(Object.keys(rename.content), ['application/json', 'application/x-www-form-urlencoded']);
  assert.equal(rename.content['application/json'].schema, {
    type: 'object',
    properties: { name: { type: 'string' }, nickname: { type: 'string' } },
    required: ['name'],
  });
  assert.equal(Object.keys(written.paths['/people/{id}/note'].put.requestBody.content), ['application/json', 'text/plain']);
  assert.equal(Object.keys(written.paths['/misc/anything'].post.requestBody.content), [
    'application/json',
    'application/x-www-form-urlencoded',
    'text/plain',
  ]);
});

Contracts('responses: @HttpStatus, 204 for void, unions, Response routes, JSDoc, and the errors Kiln answers', () => {
  const create = written.paths['/people'].post;
  assert.equal(Object.keys(create.responses), ['201', '400', '409', '413', '415']);
  assert.equal(create.responses['201'].content['application/json'].schema, { $ref: '#/components/schemas/Person' });
  assert.equal(create.responses['409'], {
    description: 'A person with this email exists',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/KilnErrorBody' } } },
  });
  assert.is(create.summary, 'Add a person');
  assert.equal(Object.keys(written.paths['/people/{id}'].delete.responses), ['204', '400', '404', '423'], 'with its @throws');
  assert.equal(written.paths['/people/{id}'].delete.responses['204'], { description: 'No Content' });
  assert.equal(Object.keys(written.paths['/people/{id}/maybe'].get.responses), ['200', '204', '400']);
  assert.equal(written.paths['/misc/download'].get.responses['200'].content, { 'text/plain': {} });
  assert.equal(written.paths['/misc/raw'].get.responses['200'].content, { '*/*': {} });
  assert.equal(written.paths['/misc/tree'].get.responses, {
    200: { description: 'OK', content: { 'application/json': { schema: { $ref: '#/components/schemas/Category' } } } },
  });
  assert.equal(written.paths['/misc/when'].get.responses['200'].content['application/json'].schema.properties.at, {
    type: 'string',
    format: 'date-time',
  });
  assert.is(written.paths['/people/{id}/remove'].post.deprecated, true);
  assert.equal(written.components.schemas.KilnErrorBody.required, ['error', 'message']);
  assert.equal(
    written.tags.find((t: { name: string }) => t.name === 'People'),
    { name: 'People', description: 'People: typed bodies validated by typia.' },
  );
});

Contracts("the served document adds what only the runtime knows: the limiter's 429 description and headers", () => {
  // The build knows a rateLimit(...) guards the route (its 429 is in the typed client); the runtime knows its limits and headers.
  assert.equal(Object.keys(written.paths['/misc/limited'].get.responses), ['200', '429']);
  const limited = served.paths['/misc/limited'].get.responses;
  assert.equal(Object.keys(limited), ['200', '429']);
  assert.equal(Object.keys(limited['200'].headers), ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']);
  assert.equal(Object.keys(limited['429'].headers), ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After']);
  assert.is(limited['429'].description, 'Too Many Requests: more than 2 requests in 60000 ms from this client');
  assert.equal(served.paths['/misc/tree'], written.paths['/misc/tree'], 'routes without a described middleware are as written');
});

// Valid requests for every operation, with the status each must get (checked against the document).
const person = {
  name: 'Ada',
  email: 'ada@example.com',
  age: 36,
  level: 2,
  sort: 'asc',
  address: { street: '1 Main St', city: 'London', zip: '12345' },
  previous: [],
  born: '1815-12-10',
};
const json = { 'content-type': 'application/json' };
const samples: Record<string, Sample[]> = {
  'QueryController.scalars': [
    { path: '/query/scalars?s=a&b=true&n=1.5&d=2020-01-02T03:04:05.000Z&o=%7B%22a%22%3A1%7D&e=asc&ne=2&u=x&nu=10&any=z', status: 200 },
    { path: '/query/scalars', status: 200 },
  ],
  'QueryController.arrays': [
    { path: '/query/arrays?ss=a&ss=b&ns=1&ns=2&bs=true&bs=0&ds=2020-01-01&es=desc&os=%7B%22a%22%3A1%7D&items=3', status: 200 },
    { path: '/query/arrays', status: 200 },
  ],
  'QueryController.required': [{ path: '/query/required?page=2&q=x', status: 200 }],
  'ParamsController.all': [{ path: '/params/1/x/2020-01-01/asc', status: 200 }],
  'HeadersController.all': [
    { path: '/headers', headers: { 'x-count': '3', 'x-name': 'n', 'x-flag': '1', 'x-ids': '1, 2', 'x-when': '2020-01-01' }, status: 200 },
  ],
  'CookiesController.all': [
    { path: '/cookies', headers: { cookie: 'theme=dark; visits=3; tz=Europe%2FParis' }, status: 200 },
    { path: '/cookies', headers: { cookie: 'theme=light' }, status: 200 },
  ],
  'PeopleController.create': [
    { method: 'POST', path: '/people', headers: json, body: JSON.stringify(person), status: 201 },
    { method: 'POST', path: '/people', headers: json, body: JSON.stringify({ ...person, email: 'taken@example.com' }), status: 409 },
    { method: 'POST', path: '/people', headers: json, body: JSON.stringify({ ...person, age: -1 }), status: 400 },
    { method: 'POST', path: '/people', headers: { 'content-type': 'application/xml' }, body: '<p/>', status: 415 },
  ],
  'PeopleController.rename': [
    { method: 'PATCH', path: '/people/1', headers: json, body: '{"name":"Bo"}', status: 200 },
    {
      method: 'PATCH',
      path: '/people/1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=Bo&nickname=B',
      status: 200,
    },
  ],
  'PeopleController.note': [
    { method: 'PUT', path: '/people/1/note', headers: { 'content-type': 'text/plain' }, body: 'hello', status: 200 },
  ],
  'PeopleController.removeOld': [{ method: 'POST', path: '/people/1/remove', status: 204 }],
  'PeopleController.remove': [{ method: 'DELETE', path: '/people/1', status: 204 }],
  'PeopleController.shape': [
    { path: '/people/1/shape', status: 200 },
    { path: '/people/2/shape', status: 200 },
    { path: '/people/3/shape', status: 200 },
  ],
  'PeopleController.maybe': [
    { path: '/people/1/maybe', status: 200 },
    { path: '/people/0/maybe', status: 204 },
  ],
  'MiscController.tree': [{ path: '/misc/tree', status: 200 }],
  'MiscController.anything': [
    { method: 'POST', path: '/misc/anything', headers: json, body: '[1,{"a":null}]', status: 200 },
    { method: 'POST', path: '/misc/anything', status: 200 },
  ],
  'MiscController.legacy': [{ method: 'POST', path: '/misc/legacy', headers: json, body: '{"line":"x"}', status: 200 }],
  'MiscController.download': [{ path: '/misc/download', status: 200 }],
  'MiscController.raw': [{ path: '/misc/raw', status: 200 }],
  'MiscController.text': [{ path: '/misc/text', status: 200 }],
  'MiscController.when': [{ path: '/misc/when', status: 200 }],
  'PostsController.get': [{ path: '/posts/1', status: 200 }],
  'PostsController.publish': [{ method: 'POST', path: '/posts/1/publish?at=2026-01-01T00:00:00Z', status: 200 }],
  'DraftsController.get': [{ path: '/drafts/1', status: 200 }],
  'DraftsController.publish': [{ method: 'POST', path: '/drafts/1/publish', status: 200 }],
  'DraftsController.history': [{ path: '/drafts/1/history', status: 200 }],
  // max 2 a minute: the third is refused with the 429 the served document describes.
  'MiscController.limited': [
    { path: '/misc/limited', status: 200 },
    { path: '/misc/limited', status: 200 },
    { path: '/misc/limited', status: 429 },
  ],
};

Contracts('every operation answers real requests exactly as the document describes', async () => {
  await contract.assertSamplesAnswered(samples, send);
});

Contracts('a request the document says is invalid gets the 400 the document describes', async () => {
  const made = await contract.assertInvalidRequestsRefused(samples, send, ['MiscController.limited']);
  assert.ok(made >= 30, `only ${made} invalid requests were derived from the document`);
});

Contracts.run();
