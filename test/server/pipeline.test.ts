// The contract both transports share: every routing and response decision the pipeline makes,
// over a socket and through app.fetch, with identical answers (overBothTransports checks that).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get, Post, compiledBinder, type KilnRequest } from '@kiln/core';
import { overBothTransports } from '../support/server.js';

@Controller('/p')
class PipelineController {
  @Get('/') index() {
    return { handler: 'index' };
  }
  @Get('/path') @compiledBinder((req: KilnRequest) => [req.path]) path(path: string) {
    return { path };
  }
  @Get('/route/:id')
  @compiledBinder((req: KilnRequest) => [req.route, req.params.id])
  route(route: unknown, id: string) {
    return { route, id };
  }
  @Get('/response') response() {
    return new Response('raw text', { status: 203, headers: { 'content-type': 'text/plain', 'x-raw': '1' } });
  }
  @Post('/body') @compiledBinder(async (req: KilnRequest) => [await req.parseBody()]) body(body: unknown) {
    return { body };
  }
  @Post('/ignore') ignore() {
    return { ignored: true };
  }
  @Get('/not-an-http-error') notAnHttpError() {
    throw Object.assign(new Error('looks like one'), { status: 418 });
  }
}

const config = { controllers: [PipelineController], maxBodySize: 1024, maxUrlLength: 2048, onError: () => {} };
const Pipeline = suite('pipeline contract');

Pipeline('414: a request target over maxUrlLength is answered before routing', () =>
  overBothTransports(config, async (send) => {
    const reply = await send(`/p/path?q=${'a'.repeat(3000)}`);
    assert.is(reply.status, 414);
    assert.is(reply.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(reply.json(), { error: 'URI Too Long', message: 'Request target is longer than 2048 bytes' });
  }),
);

Pipeline('414: the limit counts the whole target, path and query', () =>
  overBothTransports(config, async (send) => {
    assert.is((await send(`/p/${'x'.repeat(2050)}`)).status, 414);
    assert.is((await send(`/p/path?q=${'a'.repeat(2000)}`)).status, 200);
  }),
);

Pipeline('413: a declared Content-Length over maxBodySize answers 413, whether or not the handler reads the body', () =>
  overBothTransports(config, async (send) => {
    for (const path of ['/p/body', '/p/ignore']) {
      const reply = await send(path, {
        method: 'POST',
        body: 'x'.repeat(2000),
        headers: { 'content-type': 'text/plain', 'content-length': '2000' },
      });
      assert.is(reply.status, 413, path);
      assert.equal(reply.json(), { error: 'Payload Too Large', message: 'Request body is larger than the limit of 1024 bytes' });
    }
  }),
);

Pipeline('413: a body under the limit is read', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/p/body', { method: 'POST', body: 'small', headers: { 'content-type': 'text/plain' } });
    assert.equal(reply.json(), { body: 'small' });
  }),
);

Pipeline('trailing slash: matches the same route, and req.path is the routed path', () =>
  overBothTransports(config, async (send) => {
    assert.equal((await send('/p/path')).json(), { path: '/p/path' });
    assert.equal((await send('/p/path/')).json(), { path: '/p/path' });
    assert.equal((await send('/p/path/?a=1')).json(), { path: '/p/path' });
    assert.equal((await send('/p/')).json(), { handler: 'index' });
  }),
);

Pipeline('req.route is the matched row of app.routes, with the declared path', () =>
  overBothTransports(config, async (send) => {
    assert.equal((await send('/p/route/7')).json(), { route: { method: 'GET', path: '/p/route/:id', handler: 'route' }, id: '7' });
  }),
);

Pipeline('HEAD: a GET route answers with its status and headers and no body', () =>
  overBothTransports(config, async (send) => {
    const plain = await send('/p/path', { method: 'HEAD' });
    assert.is(plain.status, 200);
    assert.is(plain.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.is(plain.text, '');
    const response = await send('/p/response', { method: 'HEAD' });
    assert.is(response.status, 203);
    assert.is(response.headers.get('x-raw'), '1');
    assert.is(response.text, '');
  }),
);

Pipeline('HEAD: an unknown path answers 404 without a body; a POST-only path answers 405', () =>
  overBothTransports(config, async (send) => {
    const missing = await send('/p/nowhere', { method: 'HEAD' });
    assert.is(missing.status, 404);
    assert.is(missing.text, '');
    const postOnly = await send('/p/ignore', { method: 'HEAD' });
    assert.is(postOnly.status, 405);
    assert.is(postOnly.headers.get('allow'), 'POST, OPTIONS');
  }),
);

Pipeline('OPTIONS: a known path answers 204 with Allow (HEAD listed beside GET)', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/p/path', { method: 'OPTIONS' });
    assert.is(reply.status, 204);
    assert.is(reply.headers.get('allow'), 'GET, HEAD, OPTIONS');
    assert.is(reply.headers.get('content-type'), null);
    assert.is(reply.text, '');
  }),
);

Pipeline('OPTIONS: an unknown path answers 404', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/p/nowhere', { method: 'OPTIONS' });
    assert.is(reply.status, 404);
    assert.equal(reply.json(), { error: 'Not Found', message: 'No route for OPTIONS /p/nowhere' });
  }),
);

Pipeline('405: a known path with another method names the allowed ones', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/p/path', { method: 'PUT' });
    assert.is(reply.status, 405);
    assert.is(reply.headers.get('allow'), 'GET, HEAD, OPTIONS');
    assert.equal(reply.json(), { error: 'Method Not Allowed', message: 'Method PUT is not allowed for /p/path' });
  }),
);

Pipeline('404: the message names the routed path', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/p/nowhere/?x=1');
    assert.is(reply.status, 404);
    assert.equal(reply.json(), { error: 'Not Found', message: 'No route for GET /p/nowhere' });
  }),
);

Pipeline('errors: only an HttpError chooses its status; an Error with a status property is a 500', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/p/not-an-http-error');
    assert.is(reply.status, 500);
    assert.equal(reply.json(), { error: 'Internal Server Error', message: 'Internal Server Error' });
  }),
);

Pipeline('errors: malformed percent-encoding in a path parameter answers 400', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/p/route/%E0%A4%A');
    assert.is(reply.status, 400);
    assert.equal(reply.json(), { error: 'Bad Request', message: 'Malformed percent-encoding in the request path' });
  }),
);

Pipeline('a returned Response keeps its status, headers and body', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/p/response');
    assert.is(reply.status, 203);
    assert.is(reply.headers.get('content-type'), 'text/plain');
    assert.is(reply.text, 'raw text');
  }),
);

Pipeline.run();
