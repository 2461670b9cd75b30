// The Kiln benchmark application's controllers: routes (a) GET /hello, (b) GET /users/:id and
// (c) POST /users. The binding micro-benchmark times the binder of `UsersController.get`.
//
// Until kiln/transformer lands, the binders below are written by hand in the shape the
// transformer generates: straight-line conversion passed to `@compiledBinder`, the runtime entry
// point generated code targets. Switching to the real `@Param/@Query/@Header/@Body` decorators
// compiled by the plugin changes this file only (and bench/tsconfig.kiln.json's plugin entry).
import { Controller, Get, Post, HttpError, compiledBinder } from 'kiln';
import { checkNewUser, type NewUser } from '../../new-user.js';

@Controller('/hello')
export class HelloController {
  @Get('/')
  hello() {
    return { hello: 'world' };
  }
}

@Controller('/users')
export class UsersController {
  @Get('/:id')
  @compiledBinder((req, strict) => {
    const rawId = req.params.id;
    const id = Number(rawId);
    if (strict && (rawId === undefined || rawId === '' || Number.isNaN(id))) {
      throw new HttpError(400, `Parameter 'id' expected number, got '${rawId}'`);
    }
    const query = req.query;
    const rawActive = query.active;
    const tags = query.tags;
    return [
      id,
      rawActive === 'true' || rawActive === '1',
      tags === undefined ? [] : typeof tags === 'string' ? [tags] : tags,
      req.headers.get('x-request-id') ?? undefined,
    ];
  })
  get(id: number, active: boolean, tags: string[], requestId: string) {
    return { id, active, tags, requestId };
  }

  @Post('/')
  @compiledBinder(async (req) => [await req.parseBody()])
  create(user: NewUser) {
    // Kiln has no body validation yet (typia validation is a later issue): the same hand-written
    // check as the raw node:http server, so route (c) compares like with like.
    const problem = checkNewUser(user);
    if (problem !== undefined) throw new HttpError(400, problem);
    return { id: 1, name: user.name, email: user.email, age: user.age };
  }
}
