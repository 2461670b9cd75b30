// createServer({ docs }): the routes it adds, what the served document gains from middlewares, and
// every start-up error (KILN030–KILN034), over a socket on 127.0.0.1 and through app.fetch.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  Controller,
  Get,
  HttpError,
  KilnError,
  Param,
  createServer,
  describeMiddleware,
  openApiDescription,
  type KilnConfig,
} from '@kiln/core';
import { rateLimit } from '@kiln/rate-limit';
import { overBothTransports } from '../support/server.js';
import { root } from '../transformer/support/compile-fixture.js';

const Docs = suite('createServer docs option');

@Controller('/notes')
class NotesController {
  @Get('/:id')
  get(@Param('id') id: number) {
    return { id };
  }

  @Get('/docs')
  clash() {
    return {};
  }
}

const errorRef = { $ref: '#/components/schemas/KilnErrorBody' };
const document = {
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1.0.0' },
  paths: {
    '/notes/{id}': {
      get: {
        operationId: 'NotesController.get',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'number' } }],
        responses: {
          200: { description: 'OK' },
          400: { description: 'Bad Request', content: { 'application/json': { schema: errorRef } } },
        },
      },
    },
    '/notes/docs': { get: { operationId: 'NotesController.clash', responses: { 200: { description: 'OK' } } } },
  },
  components: { schemas: { KilnErrorBody: { type: 'object' } } },
};

function startupError(config: KilnConfig): KilnError {
  try {
    createServer(config);
  } catch (error) {
    assert.instance(error, KilnError);
    return error as KilnError;
  }
  assert.unreachable('createServer should have thrown');
  throw new Error('unreachable');
}

Docs('serves the document at docs.openapi (HEAD too) and adds no route when docs is absent', async () => {
  await overBothTransports({ controllers: [NotesController], docs: { document } }, async (send, transport) => {
    const reply = await send('/openapi.json');
    assert.is(reply.status, 200);
    assert.is(reply.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(reply.json(), document);
    const head = await send('/openapi.json', { method: 'HEAD' });
    // (app.fetch hands back the handler's Response as it is, body included, for any method)
    assert.equal([head.status, transport === 'socket' ? head.text : ''], [200, '']);
    assert.is((await send('/docs/swagger-ui.css')).status, 404, 'no page without docs.ui');
  });
  await overBothTransports({ controllers: [NotesController] }, async (send) => {
    assert.is((await send('/openapi.json')).status, 404);
  });
});

Docs('reads the document from a path or a file: URL', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kiln-docs-'));
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(document));
  for (const where of [file, pathToFileURL(file)]) {
    await overBothTransports({ controllers: [NotesController], docs: { document: where, openapi: '/spec' } }, async (send) => {
      assert.equal((await send('/spec')).json().info, { title: 'Notes', version: '1.0.0' });
    });
  }
});

Docs('with openapi: false the page embeds the document', async () => {
  await overBothTransports({ controllers: [NotesController], docs: { document, openapi: false, ui: '/api-docs' } }, async (send) => {
    assert.is((await send('/openapi.json')).status, 404);
    const script = await send('/api-docs/kiln-docs.js');
    assert.is(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.match(script.text, /spec: \{"openapi":"3\.1\.0"/);
    assert.match((await send('/api-docs')).text, /<script src="\/api-docs\/swagger-ui-bundle\.js\?v=/);
  });
});

Docs('every docs file is sent with X-Content-Type-Options: nosniff; the page with a restrictive Content-Security-Policy', async () => {
  await overBothTransports({ controllers: [NotesController], docs: { document, ui: '/api-docs' } }, async (send) => {
    for (const path of [
      '/openapi.json',
      '/api-docs',
      '/api-docs/swagger-ui.css',
      '/api-docs/swagger-ui-bundle.js',
      '/api-docs/kiln-docs.js',
    ]) {
      const reply = await send(path);
      assert.is(reply.status, 200, path);
      assert.is(reply.headers.get('x-content-type-options'), 'nosniff', path);
      assert.is(reply.headers.get('content-security-policy'), path === '/api-docs' ? docsPolicy : null, path);
    }
    // the page itself has no inline script or style for the policy to refuse
    const page = (await send('/api-docs')).text;
    assert.not.match(page, /<script>|<style|style=/);
    assert.equal(
      [...page.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!.split('?')[0]),
      ['/api-docs/swagger-ui-bundle.js', '/api-docs/kiln-docs.js'],
    );
  });
});

const docsPolicy =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

Docs('middlewares that describe themselves add their responses and headers to the routes they guard', async () => {
  const guard = describeMiddleware(
    (req) => {
      if (req.headers.get('x-token') !== 'ok') throw new HttpError(401, 'No token');
    },
    {
      responses: { 401: { description: 'No token', content: { 'application/json': { schema: errorRef } } } },
      headers: { 'X-Guarded': { schema: { type: 'string' } } },
    },
  );
  assert.ok(openApiDescription in guard);
  const config: KilnConfig = {
    controllers: [NotesController],
    middlewares: [guard, rateLimit({ max: 5, standardHeaders: false })],
    docs: { document },
  };
  await overBothTransports(config, async (send) => {
    // The docs routes run the application middlewares too: the guard wants its token here as well.
    assert.is((await send('/openapi.json')).status, 401);
    const served = (await send('/openapi.json', { headers: { 'x-token': 'ok' } })).json();
    const responses = served.paths['/notes/{id}'].get.responses;
    assert.equal(Object.keys(responses), ['200', '400', '401', '429']);
    assert.equal(responses['200'].headers, { 'X-Guarded': { schema: { type: 'string' } } });
    assert.is(responses['429'].headers, undefined, 'standardHeaders: false adds no headers');
    assert.equal(responses['429'].content['application/json'].schema.required, ['error', 'message']);
    assert.equal(document.paths['/notes/{id}'].get.responses['200'], { description: 'OK' }, 'the given document is not changed');
  });
});

Docs('KILN030: an invalid docs option', () => {
  assert.is(startupError({ controllers: [], docs: 'openapi.json' as never }).code, 'KILN030');
  const error = startupError({ controllers: [], docs: { document, ui: 'docs' } });
  assert.is(error.code, 'KILN030');
  assert.is(error.message, `docs.ui must be a path starting with '/', or false; got "docs"`);
});

Docs('KILN031: a document that cannot be read or is not OpenAPI 3.1', () => {
  const missing = startupError({ controllers: [], docs: { document: '/nonexistent/openapi.json' } });
  assert.is(missing.code, 'KILN031');
  assert.is(
    missing.message,
    `docs.document: cannot read the OpenAPI document /nonexistent/openapi.json (ENOENT; the working directory is ${process.cwd()}). ` +
      'It is the file the build writes where the openapi option of @kiln/core/transformer says ("openapi": { "output": ... }): build first, or name that file',
  );
  assert.is(startupError({ controllers: [], docs: { document: { openapi: '3.0.3', paths: {} } } }).code, 'KILN031');
});

Docs(
  'KILN031 for a server started from another folder names the file it tried and the working directory, and suggests no build option (issue 34, item 13)',
  () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'kiln-another-folder-'));
    const script = `import { createServer } from ${JSON.stringify(pathToFileURL(join(root, 'dist', 'src', 'index.js')).href)};
try { createServer({ controllers: [], docs: { document: 'openapi.json', ui: '/docs' } }); } catch (error) { console.log(error.code + ': ' + error.message); }`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: elsewhere, encoding: 'utf8' }).trim();
    assert.is(
      output,
      `KILN031: docs.document: cannot read the OpenAPI document ${join(realpathSync(elsewhere), 'openapi.json')} (ENOENT): the relative path 'openapi.json' is read from ` +
        `the working directory, ${realpathSync(elsewhere)}. Start the server from the folder that holds openapi.json, or give docs.document an absolute path`,
    );
    assert.not.match(output, /openapi option/);
  },
);

Docs('KILN032: a document older than the code (a route it does not describe)', () => {
  const stale = { ...document, paths: { '/notes/{id}': document.paths['/notes/{id}'] } };
  const error = startupError({ controllers: [NotesController], docs: { document: stale } });
  assert.is(error.code, 'KILN032');
  assert.is(
    error.message,
    'The OpenAPI document does not describe GET /notes/docs (NotesController.clash): it was written by an older build. Rebuild the app with tspc',
  );
});

Docs('KILN033: docs.ui without swagger-ui-dist installed says what to install', async () => {
  // A copy of the runtime where no node_modules can be found: as an app that did not install the optional peer.
  const dir = mkdtempSync(join(tmpdir(), 'kiln-no-ui-'));
  cpSync(join(root, 'dist', 'src'), join(dir, 'dist', 'src'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
  const isolated = await import(pathToFileURL(join(dir, 'dist', 'src', 'index.js')).href);
  const empty = { openapi: '3.1.0', info: { title: 'x', version: '1' }, paths: {} };
  assert.ok(isolated.createServer({ controllers: [], docs: { document: empty } }), 'the document alone needs no package');
  try {
    isolated.createServer({ controllers: [], docs: { document: empty, ui: '/docs' } });
    assert.unreachable('createServer should have thrown');
  } catch (error) {
    assert.is((error as KilnError).code, 'KILN033');
    assert.is(
      (error as Error).message,
      'docs.ui needs the swagger-ui-dist package, which serves the docs page without a CDN: npm install swagger-ui-dist (or remove docs.ui)',
    );
  }
});

Docs('KILN034: a docs path that is already a route', () => {
  const error = startupError({ controllers: [NotesController], docs: { document, openapi: '/notes/docs' } });
  assert.is(error.code, 'KILN034');
  assert.match(error.message, /GET \/notes\/docs is already a route of the app/);
});

Docs.run();
