// The Kiln benchmark application's controllers: routes (a) GET /hello, (b) GET /users/:id and
// (c) POST /users. The binding micro-benchmark times the binder of `UsersController.get`.
// kiln/transformer (the plugin in bench/tsconfig.kiln.json) compiles the parameter decorators
// into one binder per route at build time.
import { Body, Controller, Get, Header, HttpError, Param, Post, Query } from 'kiln';
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
  get(@Param('id') id: number, @Query('active') active: boolean, @Query('tags') tags: string[], @Header('x-request-id') requestId: string) {
    return { id, active, tags, requestId };
  }

  @Post('/')
  create(@Body() user: NewUser) {
    // Kiln has no body validation yet (typia validation is a later issue): the same hand-written
    // check as the raw node:http server, so route (c) compares like with like.
    const problem = checkNewUser(user);
    if (problem !== undefined) throw new HttpError(400, problem);
    return { id: 1, name: user.name, email: user.email, age: user.age };
  }
}
