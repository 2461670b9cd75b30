// Security schemes in the served document, and Swagger UI's Authorize button in headless
// Chromium: a person authorises with a bearer token, runs a guarded operation with "Try it out"
// and gets 200; without authorising, 401.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  Controller,
  Get,
  Header,
  HttpError,
  KilnError,
  Middleware,
  Param,
  createServer,
  describeMiddleware,
  type KilnConfig,
} from '@kiln/core';
import { rateLimit } from '@kiln/rate-limit';
import { overBothTransports, start } from '../support/server.js';
import { tryItOut } from './support/headless-docs.js';

const errorRef = { $ref: '#/components/schemas/KilnErrorBody' };
const bearer = { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } as const;

const requireToken = describeMiddleware(
  (req) => {
    if (req.headers.get('authorization') !== 'Bearer s3cret') throw new HttpError(401, 'Missing or wrong bearer token');
  },
  {
    security: { bearerAuth: bearer },
    responses: { 401: { description: 'Missing or wrong bearer token', content: { 'application/json': { schema: errorRef } } } },
  },
);

/** A class middleware describes itself the same way: an API key in a header, or a session cookie. */
@Middleware()
class RequireKeyOrSession {
  use(@Header('x-api-key') key?: string, @Header('cookie') cookie?: string) {
    if (key !== 'k-1' && !cookie?.includes('session=ok')) throw new HttpError(401, 'Needs an API key or a session');
  }
}
describeMiddleware(RequireKeyOrSession, {
  security: {
    apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
    session: { type: 'apiKey', in: 'cookie', name: 'session' },
  },
});

@Controller('/notes')
class NotesController {
  @Get('/')
  list() {
    return [{ id: 1 }];
  }

  @Get('/:id', requireToken)
  get(@Param('id') id: number) {
    return { id, secret: true };
  }

  @Get('/:id/audit', requireToken, RequireKeyOrSession)
  audit(@Param('id') id: number) {
    return { id, audit: [] as string[] };
  }
}

const document = {
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1.0.0' },
  paths: {
    '/notes': { get: { operationId: 'NotesController.list', summary: 'All notes', responses: { 200: { description: 'OK' } } } },
    '/notes/{id}': {
      get: {
        operationId: 'NotesController.get',
        summary: 'One note',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'number' } }],
        responses: { 200: { description: 'OK' } },
      },
    },
    '/notes/{id}/audit': {
      get: {
        operationId: 'NotesController.audit',
        summary: 'Its audit trail',
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'number' } },
          { name: 'x-api-key', in: 'header', required: false, schema: { type: 'string' } },
          { name: 'x-trace', in: 'header', required: false, schema: { type: 'string' } },
        ],
        responses: { 200: { description: 'OK' } },
      },
    },
  },
  components: { schemas: { KilnErrorBody: { type: 'object' } } },
};

const test = suite('security schemes and the Authorize button');

test('the document gets components.securitySchemes and a security requirement on the guarded operations only', async () => {
  const config: KilnConfig = { controllers: [NotesController], middlewares: [rateLimit({ max: 50 })], docs: { document } };
  // The limiter's RateLimit-Reset is the seconds left in its window: on a clock that moves, the two
  // transports' answers could straddle a second and differ by one. Date.now stands still here.
  const realNow = Date.now;
  const frozen = realNow();
  Date.now = () => frozen;
  try {
    await answersOverBothTransports(config);
  } finally {
    Date.now = realNow;
  }
});

async function answersOverBothTransports(config: KilnConfig): Promise<void> {
  await overBothTransports(config, async (send) => {
    const served = (await send('/openapi.json')).json();
    assert.equal(served.components.securitySchemes, {
      bearerAuth: bearer,
      apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
      session: { type: 'apiKey', in: 'cookie', name: 'session' },
    });
    assert.is(served.paths['/notes'].get.security, undefined, 'an open route has no requirement');
    assert.equal(served.paths['/notes/{id}'].get.security, [{ bearerAuth: [] }]);
    assert.equal(Object.keys(served.paths['/notes/{id}'].get.responses), ['200', '401', '429']);
    // Two guards are both required; the class middleware's two schemes are alternatives.
    assert.equal(served.paths['/notes/{id}/audit'].get.security, [
      { bearerAuth: [], apiKey: [] },
      { bearerAuth: [], session: [] },
    ]);
    assert.equal(
      served.paths['/notes/{id}/audit'].get.parameters.map((p: { name: string }) => p.name),
      ['id', 'x-trace'],
      'the x-api-key header the scheme sends is not asked for twice',
    );
    assert.is(document.paths['/notes/{id}/audit'].get.parameters.length, 3, 'the given document is not changed');
  });
}

test('KILN035: one name for two different schemes, or a scheme without a type', () => {
  const other = describeMiddleware(() => undefined, { security: { bearerAuth: { type: 'http', scheme: 'basic' } } });
  const broken = describeMiddleware(() => undefined, { security: { odd: { scheme: 'bearer' } as never } });
  for (const [middleware, message] of [
    [
      other,
      /^Two different security schemes are named 'bearerAuth' \(.*"scheme":"basic".* and .*"scheme":"bearer".*, on GET \/notes\/:id\): give each its own name$/,
    ],
    [broken, /^The security scheme 'odd' of a middleware of GET \/notes is not an OpenAPI Security Scheme Object \(no "type"\)$/],
  ] as const) {
    try {
      createServer({ controllers: [NotesController], middlewares: [middleware], docs: { document } });
      assert.unreachable('createServer should have thrown');
    } catch (error) {
      assert.instance(error, KilnError);
      assert.is((error as KilnError).code, 'KILN035');
      assert.match((error as Error).message, message);
    }
  }
  // The same scheme under the same name, written with its keys in another order, is one scheme.
  const same = describeMiddleware(() => undefined, { security: { bearerAuth: { bearerFormat: 'JWT', scheme: 'bearer', type: 'http' } } });
  assert.ok(createServer({ controllers: [NotesController], middlewares: [same], docs: { document } }));
});

test('Chromium: Authorize with the bearer token, Try it out on the guarded route: 200; without authorising: 401', async () => {
  const started = await start({ controllers: [NotesController], docs: { document, ui: '/docs' } });
  try {
    const run = { path: '/notes/{id}', parameters: { id: '7' } };
    const [authorised, anonymous] = await tryItOut(`${started.base}/docs`, [{ ...run, token: 's3cret' }, run]);
    assert.equal(authorised, { status: 200, authorization: 'Bearer s3cret' });
    assert.equal(anonymous, { status: 401, authorization: null });
  } finally {
    await started.close();
  }
});

test.run();
