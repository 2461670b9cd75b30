// The guard recipe: the application's own decorators attach data to routes with
// createRouteMetadata, and a middleware reads it from req.route. Class and method values,
// inheritance, merging, and the guard composed with CORS, a rate limiter and injected services.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  Controller,
  Get,
  HttpError,
  Injectable,
  KilnError,
  Param,
  Post,
  cors,
  createRouteMetadata,
  createServer,
  type KilnConfig,
  type MiddlewareFunction,
} from '@kiln/core';
import { rateLimit } from '@kiln/rate-limit';
import { overBothTransports } from '../support/server.js';

declare module '@kiln/core' {
  interface KilnRequest {
    member?: { name: string; roles: string[] };
  }
}

/** `@Roles('admin', 'editor')`: any one of them lets the user in. */
const Roles = createRouteMetadata((...roles: string[]) => roles, { name: 'Roles' });
/** `@Public()`: no user needed. */
const Public = createRouteMetadata(() => true as const);
/** `@Audit(['reads'])`: topics accumulate from class to method. */
const Audit = createRouteMetadata<string[]>({ merge: (outer, inner) => [...outer, ...inner] });

@Injectable()
class UserDirectory {
  readonly #users: Record<string, { name: string; roles: string[] }> = {
    'ann-token': { name: 'ann', roles: ['admin'] },
    'bob-token': { name: 'bob', roles: ['editor'] },
    'eve-token': { name: 'eve', roles: [] },
  };
  byToken(token: string | null) {
    return token === null ? undefined : this.#users[token];
  }
}
const directory = new UserDirectory();

const authenticate: MiddlewareFunction = (req) => {
  if (Public.get(req.route) === true) return;
  const user = directory.byToken(req.headers.get('authorization')?.replace(/^Bearer /, '') ?? null);
  if (user === undefined) throw new HttpError(401, 'Sign in first');
  req.member = user;
};

// The RolesGuard of the guide: a few lines.
const rolesGuard: MiddlewareFunction = (req) => {
  if (Public.get(req.route) === true) return;
  const roles = Roles.get(req.route);
  if (roles !== undefined && !roles.some((role) => req.member?.roles.includes(role))) {
    throw new HttpError(403, `Needs one of the roles: ${roles.join(', ')}`);
  }
};

@Controller('/posts', authenticate, rolesGuard)
@Roles('editor', 'admin')
@Audit(['posts'])
class PostsController {
  @Get('/')
  @Public()
  list() {
    return [{ id: 1 }];
  }

  @Get('/:id')
  @Audit(['reads'])
  get(@Param('id') id: number) {
    return { id, audit: Audit.get(undefined) ?? null };
  }

  @Post('/:id/publish')
  @Roles('admin')
  publish(@Param('id') id: number) {
    return { id, published: true };
  }
}

/** Inherits every route; its own class value replaces the parent's, its own method values the inherited ones. */
@Controller('/drafts', authenticate, rolesGuard)
@Roles('admin')
class DraftsController extends PostsController {
  @Get('/:id/history')
  @Roles('editor')
  history(@Param('id') id: number) {
    return { id, history: [] as string[] };
  }
}

/** No metadata at all: the guard lets everyone in. */
@Controller('/open', rolesGuard)
class OpenController {
  @Get('/')
  open() {
    return { open: true };
  }
}

const routeOf = (app: ReturnType<typeof createServer>, method: string, path: string) =>
  app.routes.find((route) => route.method === method && route.path === path);

const test = suite('route metadata and guards');

test('the reader gives the method value, else the class value; merge combines them; nothing without a route', () => {
  const app = createServer({ controllers: [PostsController, DraftsController, OpenController] });
  const of = (method: string, path: string) => {
    const route = routeOf(app, method, path);
    return { roles: Roles.get(route), public: Public.get(route), audit: Audit.get(route) };
  };
  assert.equal(of('GET', '/posts'), { roles: ['editor', 'admin'], public: true, audit: ['posts'] });
  assert.equal(of('GET', '/posts/:id'), { roles: ['editor', 'admin'], public: undefined, audit: ['posts', 'reads'] });
  assert.equal(of('POST', '/posts/:id/publish'), { roles: ['admin'], public: undefined, audit: ['posts'] });
  assert.equal(
    of('GET', '/drafts'),
    { roles: ['admin'], public: true, audit: ['posts'] },
    'inherited: class value replaced, method values kept',
  );
  assert.equal(of('POST', '/drafts/:id/publish'), { roles: ['admin'], public: undefined, audit: ['posts'] });
  assert.equal(of('GET', '/drafts/:id/history'), { roles: ['editor'], public: undefined, audit: ['posts'] });
  assert.equal(of('GET', '/open'), { roles: undefined, public: undefined, audit: undefined });
  assert.is(Roles.get(undefined), undefined);
  assert.is(Roles.get(routeOf(app, 'GET', '/posts')), Roles.get(routeOf(app, 'GET', '/posts')), 'read once, then cached');
});

test('RolesGuard: 401 without a user, 403 without the role, 200 with it; public routes need nobody', async () => {
  const as = (token?: string) => (token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });
  await overBothTransports({ controllers: [PostsController, DraftsController, OpenController] }, async (send) => {
    const statuses = async (method: string, path: string) => {
      const found: number[] = [];
      for (const token of [undefined, 'eve-token', 'bob-token', 'ann-token'])
        found.push((await send(path, { method, ...as(token) })).status);
      return found;
    };
    assert.equal(await statuses('GET', '/posts'), [200, 200, 200, 200]);
    assert.equal(await statuses('GET', '/posts/1'), [401, 403, 200, 200]);
    assert.equal(await statuses('POST', '/posts/1/publish'), [401, 403, 403, 200]);
    assert.equal(await statuses('GET', '/drafts/1'), [401, 403, 403, 200]);
    assert.equal(await statuses('GET', '/drafts/1/history'), [401, 403, 200, 403]);
    assert.equal(await statuses('GET', '/open'), [200, 200, 200, 200]);
    const refused = await send('/posts/1/publish', { method: 'POST', ...as('bob-token') });
    assert.equal(refused.json(), { error: 'Forbidden', message: 'Needs one of the roles: admin' });
    assert.equal((await send('/nowhere', as('ann-token'))).status, 404, 'an application guard sees req.route undefined');
  });
});

test('the guard composes with CORS, a rate limiter, strict validation and injected services', async () => {
  const config: KilnConfig = {
    controllers: [PostsController],
    middlewares: [cors({ origin: '*' }), rateLimit({ max: 4 })],
    strictValidation: true,
    injections: [{ token: UserDirectory, provide: directory }],
  };
  await overBothTransports(
    config,
    async (send) => {
      const headers = { authorization: 'Bearer bob-token', origin: 'https://x.example' };
      const forbidden = await send('/posts/1/publish', { method: 'POST', headers });
      assert.is(forbidden.status, 403);
      assert.is(forbidden.headers.get('access-control-allow-origin'), '*');
      assert.is(forbidden.headers.get('ratelimit-remaining'), '3');
      assert.is((await send('/posts/abc', { headers })).status, 400, 'strict validation still answers for a bad id');
      assert.is((await send('/posts/2', { headers })).status, 200);
      assert.is((await send('/posts')).status, 200, 'a public route, without a user');
      assert.is((await send('/posts/3', { headers })).status, 429, 'the limiter runs before the guard');
    },
    { identical: false },
  ); // RateLimit-Reset may tick between the two runs
});

test('KILN008: on a static method or a field; merge that is not a function', () => {
  const codeOf = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      assert.instance(error, KilnError);
      return (error as KilnError).code;
    }
    return undefined;
  };
  assert.is(
    codeOf(() => {
      class Bad {
        @Roles('x') static make() {}
        instance() {}
      }
      return Bad;
    }),
    'KILN008',
  );
  assert.is(
    codeOf(() => {
      const decorate = Roles('x') as unknown as (value: undefined, context: ClassFieldDecoratorContext) => void;
      class Bad {
        @decorate field = 1;
      }
      return Bad;
    }),
    'KILN008',
  );
  assert.is(
    codeOf(() => createRouteMetadata({ merge: 'yes' as never })),
    'KILN008',
  );
});

test.run();
