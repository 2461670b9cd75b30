import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { Controller, Get, Post, Put, Delete, Patch, compiledBinder, createServer, type KilnRequest } from '@kiln/core';
import { overBothTransports } from '../support/server.js';

@Controller('/items')
class ItemsController {
  @Get('/') list() {
    return { handler: 'list' };
  }
  @Post('/') create() {
    return { handler: 'create' };
  }
  @Put('/:id') @compiledBinder((req: KilnRequest) => [req.params.id]) replace(id: string) {
    return { handler: 'replace', id };
  }
  @Patch('/:id') @compiledBinder((req: KilnRequest) => [req.params.id]) update(id: string) {
    return { handler: 'update', id };
  }
  @Delete('/:id') @compiledBinder((req: KilnRequest) => [req.params.id]) remove(id: string) {
    return { handler: 'remove', id };
  }
  @Get('/:id') @compiledBinder((req: KilnRequest) => [req.params.id]) get(id: string) {
    return { handler: 'get', id };
  }
  @Get('/featured') featured() {
    return { handler: 'featured' };
  }
  @Get('/:itemId/parts/:partId')
  @compiledBinder((req: KilnRequest) => [{ ...req.params }])
  part(params: Record<string, string>) {
    return { handler: 'part', params };
  }
}

@Controller('/')
class RootController {
  @Get('/') home() {
    return 'home';
  }
  @Get('health') health() {
    return { ok: true };
  }
}

// Static segments beside a parameter, in the segment tree (the paths have parameters): a few
// siblings that are prefixes of one another, and one node with more siblings than the router
// compares one by one (eight), which it looks up by name instead.
const fewNames = ['ab', 'abc', 'b'];
const manyNames = ['s0', 's1', 's2', 's3', 's4', 's5', 's6', 's7', 's8', 's9', 's10'];
const byParams = (req: KilnRequest) => [{ ...req.params }];

@Controller('/few')
class FewSiblingsController {
  @Get('/ab/:id') @compiledBinder(byParams) ab(params: Record<string, string>) {
    return { route: 'ab', params };
  }
  @Get('/abc/:id') @compiledBinder(byParams) abc(params: Record<string, string>) {
    return { route: 'abc', params };
  }
  @Get('/b/:id') @compiledBinder(byParams) b(params: Record<string, string>) {
    return { route: 'b', params };
  }
  @Get('/ab/:id/deep') @compiledBinder(byParams) abDeep(params: Record<string, string>) {
    return { route: 'ab deep', params };
  }
  @Get('/:name/:id') @compiledBinder(byParams) any(params: Record<string, string>) {
    return { route: 'any', params };
  }
  @Get('/:name/:id/deeper') @compiledBinder(byParams) anyDeeper(params: Record<string, string>) {
    return { route: 'any deeper', params };
  }
}

@Controller('/many')
class ManySiblingsController {
  @Get('/s0/:id') @compiledBinder(byParams) s0(params: Record<string, string>) {
    return { route: 's0', params };
  }
  @Get('/s1/:id') @compiledBinder(byParams) s1(params: Record<string, string>) {
    return { route: 's1', params };
  }
  @Get('/s2/:id') @compiledBinder(byParams) s2(params: Record<string, string>) {
    return { route: 's2', params };
  }
  @Get('/s3/:id') @compiledBinder(byParams) s3(params: Record<string, string>) {
    return { route: 's3', params };
  }
  @Get('/s4/:id') @compiledBinder(byParams) s4(params: Record<string, string>) {
    return { route: 's4', params };
  }
  @Get('/s5/:id') @compiledBinder(byParams) s5(params: Record<string, string>) {
    return { route: 's5', params };
  }
  @Get('/s6/:id') @compiledBinder(byParams) s6(params: Record<string, string>) {
    return { route: 's6', params };
  }
  @Get('/s7/:id') @compiledBinder(byParams) s7(params: Record<string, string>) {
    return { route: 's7', params };
  }
  @Get('/s8/:id') @compiledBinder(byParams) s8(params: Record<string, string>) {
    return { route: 's8', params };
  }
  @Get('/s9/:id') @compiledBinder(byParams) s9(params: Record<string, string>) {
    return { route: 's9', params };
  }
  @Get('/s10/:id') @compiledBinder(byParams) s10(params: Record<string, string>) {
    return { route: 's10', params };
  }
  @Get('/:name/:id') @compiledBinder(byParams) any(params: Record<string, string>) {
    return { route: 'any', params };
  }
}

const Routing = suite('routing');
const config = { controllers: [ItemsController, RootController] };

Routing('each method decorator routes its HTTP method', () =>
  overBothTransports(config, async (send) => {
    assert.equal((await send('/items')).json(), { handler: 'list' });
    assert.equal((await send('/items', { method: 'POST' })).json(), { handler: 'create' });
    assert.equal((await send('/items/7', { method: 'PUT' })).json(), { handler: 'replace', id: '7' });
    assert.equal((await send('/items/7', { method: 'PATCH' })).json(), { handler: 'update', id: '7' });
    assert.equal((await send('/items/7', { method: 'DELETE' })).json(), { handler: 'remove', id: '7' });
    assert.equal((await send('/items/7')).json(), { handler: 'get', id: '7' });
  }),
);

Routing('a method path of / is the base path; the root controller composes to /', () =>
  overBothTransports(config, async (send) => {
    const home = await send('/');
    assert.is(home.status, 200);
    assert.is(home.text, '"home"');
    assert.equal((await send('/health')).json(), { ok: true });
  }),
);

Routing('a static segment wins over a parameter at the same position', () =>
  overBothTransports(config, async (send) => {
    assert.equal((await send('/items/featured')).json(), { handler: 'featured' });
  }),
);

Routing('several parameters are bound by name', () =>
  overBothTransports(config, async (send) => {
    assert.equal((await send('/items/a1/parts/b2')).json(), { handler: 'part', params: { itemId: 'a1', partId: 'b2' } });
  }),
);

Routing('parameters are percent-decoded', () =>
  overBothTransports(config, async (send) => {
    assert.equal((await send('/items/caf%C3%A9%20au%2Flait')).json(), { handler: 'get', id: 'café au/lait' });
  }),
);

Routing('malformed percent-encoding in a parameter answers 400', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/items/%E0%A4%A');
    assert.is(reply.status, 400);
    assert.equal(reply.json(), { error: 'Bad Request', message: 'Malformed percent-encoding in the request path' });
  }),
);

Routing('a trailing slash matches the same route', () =>
  overBothTransports(config, async (send) => {
    assert.equal((await send('/items/')).json(), { handler: 'list' });
    assert.equal((await send('/items/9/')).json(), { handler: 'get', id: '9' });
  }),
);

Routing('an unknown path answers 404 with the error body', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/nowhere');
    assert.is(reply.status, 404);
    assert.is(reply.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(reply.json(), { error: 'Not Found', message: 'No route for GET /nowhere' });
  }),
);

Routing('a known path with another method answers 405 with Allow', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/health', { method: 'DELETE' });
    assert.is(reply.status, 405);
    assert.is(reply.headers.get('allow'), 'GET, HEAD, OPTIONS');
    assert.equal(reply.json(), { error: 'Method Not Allowed', message: 'Method DELETE is not allowed for /health' });
  }),
);

Routing('OPTIONS on a known path answers 204 with Allow', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/items', { method: 'OPTIONS' });
    assert.is(reply.status, 204);
    assert.is(reply.headers.get('allow'), 'GET, POST, HEAD, OPTIONS');
    assert.is(reply.text, '');
  }),
);

Routing('HEAD is answered by the GET route without a body', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/health', { method: 'HEAD' });
    assert.is(reply.status, 200);
    assert.is(reply.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.is(reply.text, '');
  }),
);

Routing(
  'a segment takes the static route of exactly its name, with few or many siblings, else the parameter; a static branch that fails deeper falls back to the parameter',
  async () => {
    // one seed for both transports, so that both send the same requests
    const seed = Date.now() % 2_147_483_647;
    const segment = fc.oneof(
      fc.constantFrom(...fewNames, ...manyNames, 'a', 'abcd', 'ba', 's', 's11', 's01', 'S1'),
      fc.stringMatching(/^[a-z0-9]{1,6}$/),
    );
    const expected = (names: readonly string[], name: string) => (names.includes(name) ? name : 'any');
    await overBothTransports({ controllers: [FewSiblingsController, ManySiblingsController] }, async (send) => {
      await fc.assert(
        fc.asyncProperty(segment, fc.stringMatching(/^[a-z0-9]{1,4}$/), async (name, id) => {
          const few = (await send(`/few/${name}/${id}`)).json();
          assert.equal(few, { route: expected(fewNames, name), params: expected(fewNames, name) === 'any' ? { name, id } : { id } });
          const many = (await send(`/many/${name}/${id}`)).json();
          assert.equal(many, { route: expected(manyNames, name), params: expected(manyNames, name) === 'any' ? { name, id } : { id } });
          // /few/ab/:id has /deep only: /deeper goes back to the parameter at the first segment
          assert.equal((await send(`/few/${name}/${id}/deeper`)).json(), { route: 'any deeper', params: { name, id } });
        }),
        { seed, numRuns: 40 },
      );
      assert.equal((await send('/few/ab/7/deep')).json(), { route: 'ab deep', params: { id: '7' } });
    });
  },
);

Routing('app.routes lists the static route table', () => {
  const app = createServer(config);
  const get = app.routes.find((route) => route.method === 'GET' && route.path === '/items/:id');
  assert.ok(get);
  assert.is(get.controller, ItemsController);
  assert.is(get.handler, 'get');
  assert.is(app.routes.length, 10);
  assert.ok(Object.isFrozen(app.routes));
});

Routing('the same method and path declared twice fails at createServer naming both handlers', () => {
  @Controller('/items')
  class Duplicate {
    @Get('/:key') @compiledBinder((req: KilnRequest) => [req.params.key]) other(key: string) {
      return key;
    }
  }
  assert.throws(
    () => createServer({ controllers: [ItemsController, Duplicate] }),
    (error: Error & { code?: string }) =>
      error.message === 'Route GET /items/:key is declared twice: by ItemsController.get and by Duplicate.other' &&
      error.code === 'KILN002',
  );
});

Routing('a handler with parameters but no compiled binder fails at createServer', () => {
  @Controller('/x')
  class Unbound {
    @Get('/:id') get(id: string) {
      return id;
    }
  }
  assert.throws(
    () => createServer({ controllers: [Unbound] }),
    (error: Error & { code?: string }) =>
      error.code === 'KILN003' &&
      error.message.startsWith('Route GET /x/:id (Unbound.get) has no compiled binder: @kiln/core/transformer did not run') &&
      error.message.includes('"transform": "@kiln/core/transformer", "transformProgram": true'),
  );
});

Routing('a class without @Controller in controllers fails at createServer', () => {
  class Plain {}
  assert.throws(() => createServer({ controllers: [Plain] }), /Plain is listed in controllers but is not decorated with @Controller/);
});

Routing.run();
