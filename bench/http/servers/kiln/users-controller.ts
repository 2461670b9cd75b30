// The Kiln benchmark application's controllers: routes (a) GET /hello, (b) GET /users/:id,
// (c) POST /users, (e) GET /users, and the other routes of the mixed traffic (mixed-traffic.mjs).
// The binding micro-benchmark times the binder of `UsersController.get`.
// @kiln/core/transformer (the plugin in bench/tsconfig.kiln.json) compiles the parameter decorators
// into one binder per route at build time; typia's transform writes the body's validator and the
// typed responses' serialisers (GET /users is sent by the serialiser of UserSummary[]).
import { Body, Controller, Delete, Get, Header, HttpStatus, Param, Post, Query, Response } from '@kiln/core';
import { rateLimit } from '@kiln/rate-limit';
import type { NewUser } from '../../new-user.js';
import { userList, type UserSummary } from '../../user-list.js';

const reportCsv = 'id,name\n1,Ada\n2,Grace\n';

@Controller('/hello')
export class HelloController {
  @Get('/')
  hello() {
    return { hello: 'world' };
  }
}

@Controller('/users')
export class UsersController {
  @Get('/')
  list(): UserSummary[] {
    return userList;
  }

  @Get('/:id')
  get(@Param('id') id: number, @Query('active') active: boolean, @Query('tags') tags: string[], @Header('x-request-id') requestId: string) {
    return { id, active, tags, requestId };
  }

  @Post('/')
  create(@Body() user: NewUser) {
    // Validated before this line by the typia validator the build generated (strictValidation).
    return { id: 1, name: user.name, email: user.email, age: user.age };
  }

  @Delete('/:id')
  @HttpStatus(204)
  remove(@Param('id') _id: number): void {}
}

@Controller('/')
export class MixedController {
  @Get('/items/:id')
  item(@Param('id') id: number) {
    return { id };
  }

  @Get('/search')
  search(@Query('tags') tags: string[], @Query('limit') limit: number) {
    return { tags, limit };
  }

  @Get('/whoami')
  whoami(@Header('x-user') user: string) {
    return { user };
  }

  // Kiln's Response (imported above): the kept string is sent in one write.
  @Get('/report.csv')
  report() {
    return new Response(reportCsv, { headers: { 'content-type': 'text/csv; charset=utf-8' } });
  }

  // The global Response, for (mw): what a handler not yet adopting Kiln's costs.
  @Get('/report-web.csv')
  reportWeb() {
    return new globalThis.Response(reportCsv, { headers: { 'content-type': 'text/csv; charset=utf-8' } });
  }

  @Get('/limited', rateLimit({ max: 1_000_000_000, windowMs: 60_000 }))
  limited() {
    return { limited: true };
  }
}
