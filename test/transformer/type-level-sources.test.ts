// Type-level parameter sources (`id: Param<number>`, `tags: Query<string[]>`, `item: Body<T>`,
// `ip: Req<'ip'>`, `svc: Inject<Service>`), compiled by the real plugin (test/tsconfig.json), with
// the other defaults on: cors(), a rate limiter, a class middleware, injection, both modes. A
// decorator-form twin of the main route proves, for every generated input, that both forms bind alike.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import type { tags } from 'typia';
import {
  type Body,
  Controller,
  cors,
  Get,
  Header,
  HttpError,
  type Inject,
  Injectable,
  InjectionToken,
  Middleware,
  Param,
  Post,
  Query,
  type Req,
  createServer,
} from '@kiln/core';
import { rateLimit } from '@kiln/rate-limit';
import { overBothTransports } from '../support/server.js';

enum Sort {
  Asc = 'asc',
  Desc = 'desc',
}

interface NewNote {
  title: string & tags.MinLength<1>;
  stars: number & tags.Minimum<0>;
}

const PREFIX = new InjectionToken<string>('PREFIX');

@Injectable()
class Clock {
  now(): string {
    return 'tick';
  }
}

/** A class middleware whose `use` parameter is a type-level header. */
@Middleware()
class TenantGuard {
  use(tenant?: Header<string, 'x-tenant'>) {
    if (tenant === 'blocked') throw new HttpError(403, 'Tenant blocked');
  }
}

@Controller('/typed', TenantGuard)
class TypeLevelController {
  constructor(private readonly prefix: Inject<string, typeof PREFIX>) {}

  @Get('/items/:id')
  get(
    id: Param<number>,
    tags: Query<string[]>,
    tenant?: Header<string, 'x-tenant'>,
    order?: Query<Sort, 'sort'>,
    sizes: Query<number[]> = [],
  ) {
    // `id` is a number in the handler: arithmetic type-checks without a cast.
    return { id, next: id + 1, tags, tenant, order, sizes };
  }

  @Get('/users/:user_id')
  user(
    userId: Param<string, 'user_id'>,
    at?: Query<Date>,
    on?: Query<boolean>,
    filter?: Query<{ min: number }>,
    limit?: Query<number & tags.Maximum<100>>,
  ) {
    return { userId: `${this.prefix}${userId}`, at, on, filter, limit };
  }

  @Post('/notes')
  create(note: Body<NewNote>) {
    return { created: note };
  }

  @Post('/titles')
  title(title: Body<string, 'title'>) {
    return { title };
  }

  @Get('/whoami')
  whoami(path: Req<'path'>, req: Req, clock: Inject<Clock>) {
    return { path, method: req.method, clock: clock.now() };
  }
}

/** The decorator form of `TypeLevelController.get`, for the property below. */
@Controller('/decorated')
class DecoratedController {
  @Get('/items/:id')
  get(
    @Param('id') id: number,
    @Query('tags') tags: string[],
    @Header('x-tenant') tenant?: string,
    @Query('sort') order?: Sort,
    @Query('sizes') sizes: number[] = [],
  ) {
    return { id, next: id + 1, tags, tenant, order, sizes };
  }

  /** Both forms in one handler. */
  @Get('/mixed/:id')
  mixed(@Param('id') id: number, tags: Query<string[]>, @Header('x-tenant') tenant?: string, page?: Query<number>) {
    return { id, tags, tenant, page };
  }
}

const config = (strictValidation: boolean) => ({
  controllers: [TypeLevelController, DecoratedController],
  strictValidation,
  injections: [{ token: PREFIX, provide: 'user-' }],
  middlewares: [cors(), rateLimit({ max: 100_000, standardHeaders: false })],
});

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

test('strict: route, query array, named header and enum parameters are converted from their types', async () => {
  await overBothTransports(config(true), async (send) => {
    const reply = await send('/typed/items/41?tags=a&tags=b&sort=desc&sizes=1&sizes=2', { headers: { 'x-tenant': 'acme' } });
    assert.is(reply.status, 200, reply.text);
    assert.equal(reply.json(), { id: 41, next: 42, tags: ['a', 'b'], tenant: 'acme', order: 'desc', sizes: [1, 2] });
    assert.is(reply.headers.get('access-control-allow-origin'), '*', 'cors() answered too');
  });
});

test('strict: failures answer 400 with the spec messages, naming the parameter (or its given name)', async () => {
  await overBothTransports(config(true), async (send) => {
    const cases: [string, string][] = [
      ['/typed/items/x', "Parameter 'id' expected number, got 'x'"],
      ['/typed/items/1?sort=up', "Parameter 'sort' expected one of [asc, desc], got 'up'"],
      ['/typed/items/1?sizes=1&sizes=z', "Parameter 'sizes[1]' expected number, got 'z'"],
      ['/typed/users/7?at=soon', "Parameter 'at' expected valid date, got 'soon'"],
      ['/typed/users/7?filter={nope', "Parameter 'filter' expected valid JSON, got '{nope'"],
      ['/typed/users/7?limit=500', "Parameter 'limit' expected number & Maximum<100>, got '500'"],
    ];
    for (const [path, message] of cases) {
      const reply = await send(path);
      assert.is(reply.status, 400, path);
      assert.is(reply.json().message, message, path);
    }
  });
});

test('lenient: failures give the spec failure values to the handler', async () => {
  await overBothTransports(config(false), async (send) => {
    const reply = await send('/typed/items/x?sort=up&sizes=z');
    assert.is(reply.status, 200, reply.text);
    // NaN and null are written as null by JSON.
    assert.equal(reply.json(), { id: null, next: null, tags: [], order: null, sizes: [null] });
    const user = await send('/typed/users/7?on=1&at=2024-01-02&filter={"min":3}&limit=500');
    // typia tags are checked in strict mode only, as for the decorator form.
    assert.equal(user.json(), { userId: 'user-7', at: '2024-01-02T00:00:00.000Z', on: true, filter: { min: 3 }, limit: 500 });
  });
});

test('Body<T> is the whole body, validated by typia in strict mode; Body<T, field> one field', async () => {
  await overBothTransports(config(true), async (send) => {
    const ok = await send('/typed/notes', json({ title: 'x', stars: 2 }));
    assert.equal([ok.status, ok.json()], [200, { created: { title: 'x', stars: 2 } }]);
    const bad = await send('/typed/notes', json({ title: '', stars: 2 }));
    assert.is(bad.status, 400);
    assert.is(bad.json().message, 'Invalid request body: $input.title expected string & MinLength<1>, got ""');
    const field = await send('/typed/titles', json({ title: 'hello', other: 1 }));
    assert.equal(field.json(), { title: 'hello' });
    const missing = await send('/typed/titles', json({}));
    assert.is(missing.status, 400);
    assert.is(missing.json().message, "Parameter 'title' is required");
  });
});

test('both forms mix in one handler', async () => {
  await overBothTransports(config(true), async (send) => {
    const reply = await send('/decorated/mixed/3?tags=x&page=2', { headers: { 'x-tenant': 'acme' } });
    assert.equal([reply.status, reply.json()], [200, { id: 3, tags: ['x'], tenant: 'acme', page: 2 }]);
    const bad = await send('/decorated/mixed/3?page=two');
    assert.equal([bad.status, bad.json().message], [400, "Parameter 'page' expected number, got 'two'"]);
  });
});

test('Req, Req<property> and Inject<Class> inject the request, one of its properties and a service', async () => {
  await overBothTransports(config(true), async (send) => {
    const reply = await send('/typed/whoami?x=1');
    assert.equal(reply.json(), { path: '/typed/whoami', method: 'GET', clock: 'tick' });
  });
});

test('a class middleware reads a type-level header: a hostile tenant is refused before the route', async () => {
  await overBothTransports(config(false), async (send) => {
    const reply = await send('/typed/items/1', { headers: { 'x-tenant': 'blocked' } });
    assert.is(reply.status, 403);
    assert.is(reply.json().message, 'Tenant blocked');
  });
});

test('for every query, header and path value, the type-level and the decorator forms answer alike', async () => {
  for (const strictValidation of [false, true]) {
    const app = createServer(config(strictValidation));
    const text = fc.string({ maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(text, fc.integer().map(String)),
        fc.array(text, { maxLength: 3 }),
        fc.option(fc.stringMatching(/^[a-z0-9 ,]{0,8}$/)),
        fc.option(fc.oneof(fc.constantFrom('asc', 'desc'), text)),
        fc.array(fc.oneof(text, fc.integer().map(String)), { maxLength: 3 }),
        async (id, tagList, tenant, sort, sizes) => {
          const query = new URLSearchParams();
          for (const tag of tagList) query.append('tags', tag);
          if (sort !== null) query.append('sort', sort);
          for (const size of sizes) query.append('sizes', size);
          const headers: Record<string, string> = tenant === null || tenant === 'blocked' ? {} : { 'x-tenant': tenant };
          const path = `/items/${encodeURIComponent(id)}?${query}`;
          const typed = await app.fetch(new Request(`http://localhost/typed${path}`, { headers }));
          const decorated = await app.fetch(new Request(`http://localhost/decorated${path}`, { headers }));
          // A 404 names the path it missed: compare it under one prefix.
          const typedText = (await typed.text()).replaceAll('/typed/', '/decorated/');
          assert.equal([typed.status, typedText], [decorated.status, await decorated.text()], path);
        },
      ),
      { numRuns: 150 },
    );
    await app.close();
  }
});

test.run();
