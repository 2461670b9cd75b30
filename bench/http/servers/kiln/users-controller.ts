// The Kiln benchmark application's controllers: routes (a) GET /hello, (b) GET /users/:id and
// (c) POST /users. The binding micro-benchmark times the binder of `UsersController.get`.
// @kiln/core/transformer (the plugin in bench/tsconfig.kiln.json) compiles the parameter decorators
// into one binder per route at build time; typia's transform writes the body's validator.
import { Body, Controller, Get, Header, Param, Post, Query } from '@kiln/core';
import type { NewUser } from '../../new-user.js';

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
    // Validated before this line by the typia validator the build generated (strictValidation).
    return { id: 1, name: user.name, email: user.email, age: user.age };
  }
}
