import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get, Middleware, HttpError, compiledBinder, createServer, type KilnRequest, type MiddlewareFunction } from '@kiln/core';
import { overBothTransports } from '../support/server.js';

const trace = (label: string): MiddlewareFunction => (req) => {
  ((req.trace ??= []) as string[]).push(label);
};

@Middleware()
class TagClassMiddleware {
  // What @kiln/core/transformer generates for `use(@Req() req, @Header('x-token') token: string | null)`.
  @compiledBinder((req: KilnRequest) => [req, req.headers.get('x-token')])
  use(req: KilnRequest, token: string | null) {
    (req.trace as string[]).push(`class:${token}`);
  }
}

const stopWithValue: MiddlewareFunction = (req) => (req.headers.get('x-stop') === 'value' ? { stoppedBy: 'middleware' } : undefined);
const stopWithResponse: MiddlewareFunction = (req) =>
  req.headers.get('x-stop') === 'response' ? new Response('teapot', { status: 418, headers: { 'content-type': 'text/plain' } }) : undefined;
const addHeaderAfter: MiddlewareFunction = async (_req, next) => {
  const response = await next();
  response.headers.set('x-after', 'set-by-middleware');
  return response;
};
const recordHeader: MiddlewareFunction = (req) => {
  req.setResponseHeader('x-recorded', 'yes');
};
const recordOuter: MiddlewareFunction = (req) => {
  req.setResponseHeader('X-Limit', 'outer');
  req.setResponseHeader('Set-Cookie', 'a=1');
};
const recordInner: MiddlewareFunction = (req) => {
  req.setResponseHeader('x-limit', 'inner');
  req.setResponseHeader('set-cookie', 'b=2');
};
const denyAll: MiddlewareFunction = () => {
  throw new HttpError(403, 'Not for you');
};

@Controller('/m', trace('controller'), TagClassMiddleware)
class TracedController {
  @Get('/order', trace('route-1'), trace('route-2'))
  @compiledBinder((req: KilnRequest) => [req])
  order(req: KilnRequest) { return { trace: req.trace }; }

  @Get('/stop', stopWithValue, stopWithResponse)
  @compiledBinder((req: KilnRequest) => [req])
  stop(req: KilnRequest) { return { reached: 'handler', trace: req.trace }; }

  @Get('/after', addHeaderAfter) after() { return { handler: true }; }
  @Get('/after-error', addHeaderAfter) afterError() { throw new HttpError(404, 'gone'); }
  @Get('/recorded', recordHeader) recorded() { return { ok: true }; }
  @Get('/recorded-response', recordHeader) recordedResponse() { return new Response('raw', { status: 202 }); }
  @Get('/recorded-error', recordHeader, denyAll) recordedError() { return 'never'; }
  @Get('/recorded-twice', recordOuter, recordInner) recordedTwice() { return 'twice'; }
}

const config = { controllers: [TracedController], middlewares: [trace('app')] };
const Middlewares = suite('middlewares');

Middlewares('run in order: application, controller (function then class), route', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/m/order', { headers: { 'x-token': 't1' } });
    assert.equal(reply.json(), { trace: ['app', 'controller', 'class:t1', 'route-1', 'route-2'] });
  }));

Middlewares('a returned value ends the chain and is sent as JSON 200', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/m/stop', { headers: { 'x-stop': 'value' } });
    assert.is(reply.status, 200);
    assert.equal(reply.json(), { stoppedBy: 'middleware' });
  }));

Middlewares('a returned Response ends the chain and is sent as it is', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/m/stop', { headers: { 'x-stop': 'response' } });
    assert.is(reply.status, 418);
    assert.is(reply.text, 'teapot');
  }));

Middlewares('returning undefined continues to the handler', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/m/stop');
    assert.equal(reply.json(), { reached: 'handler', trace: ['app', 'controller', 'class:null'] });
  }));

Middlewares('await next() gives the downstream Response, whose headers can be set', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/m/after');
    assert.is(reply.status, 200);
    assert.is(reply.headers.get('x-after'), 'set-by-middleware');
    assert.equal(reply.json(), { handler: true });
  }));

Middlewares('await next() gives an error Response when the handler throws', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/m/after-error');
    assert.is(reply.status, 404);
    assert.is(reply.headers.get('x-after'), 'set-by-middleware');
    assert.equal(reply.json(), { error: 'Not Found', message: 'gone' });
  }));

Middlewares('setResponseHeader adds a header to a plain value, a Response and an error', () =>
  overBothTransports(config, async (send) => {
    const plain = await send('/m/recorded');
    assert.is(plain.headers.get('x-recorded'), 'yes');
    assert.equal(plain.json(), { ok: true });
    const response = await send('/m/recorded-response');
    assert.is(response.status, 202);
    assert.is(response.headers.get('x-recorded'), 'yes');
    assert.is(response.text, 'raw');
    const error = await send('/m/recorded-error');
    assert.is(error.status, 403);
    assert.is(error.headers.get('x-recorded'), 'yes');
    assert.equal(error.json(), { error: 'Forbidden', message: 'Not for you' });
  }));

Middlewares('setResponseHeader replaces an earlier value of the same name, except Set-Cookie', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/m/recorded-twice');
    assert.is(reply.headers.get('x-limit'), 'inner');
    assert.equal(reply.headers.getSetCookie(), ['a=1', 'b=2']);
  }));

Middlewares('setResponseHeader rejects line breaks', () => {
  let caught: unknown;
  const probe: MiddlewareFunction = (req) => {
    try { req.setResponseHeader('x-a', 'b\r\nset-cookie: evil=1'); } catch (error) { caught = error; }
    return { done: true };
  };
  @Controller('/p') class Probe { @Get('/') index() { return 1; } }
  return createServer({ controllers: [Probe], middlewares: [probe] })
    .fetch(new Request('http://localhost/p'))
    .then(() => assert.instance(caught, TypeError));
});

Middlewares('a class middleware without @Middleware() fails at createServer', () => {
  class NotMarked { use() {} }
  @Controller('/n') class N { @Get('/') index() { return 1; } }
  assert.throws(() => createServer({ controllers: [N], middlewares: [NotMarked] }), /class middleware NotMarked must be marked with @Middleware\(\)/);
});

Middlewares('a class middleware whose use() has parameters but no binder fails at createServer', () => {
  @Middleware() class Unbound { use(_token: string) {} }
  @Controller('/n') class N { @Get('/') index() { return 1; } }
  assert.throws(() => createServer({ controllers: [N], middlewares: [Unbound] }), /Middleware Unbound\.use has no compiled binder: @kiln\/core\/transformer did not run/);
});

Middlewares.run();
