// Express + routing-controllers: parameter decorators converted by reflection (class-transformer),
// the body checked by class-validator; scenario (d) with express-rate-limit in front.
// Usage: node server.js <port> [--rate-limit]
import 'reflect-metadata';
import express from 'express';
import { rateLimit } from 'express-rate-limit';
import { Body, Get, HeaderParam, JsonController, Param, Post, QueryParam, useExpressServer } from 'routing-controllers';
import { NewUserDto } from '../../new-user-dto.js';

@JsonController('/hello')
class HelloController {
  @Get('/')
  hello() {
    return { hello: 'world' };
  }
}

@JsonController('/users')
class UsersController {
  @Get('/:id')
  get(
    @Param('id') id: number,
    @QueryParam('active') active: boolean,
    @QueryParam('tags', { type: String, isArray: true }) tags: string[],
    @HeaderParam('x-request-id') requestId: string,
  ) {
    return { id, active: active ?? false, tags: tags ?? [], requestId };
  }

  @Post('/')
  create(@Body({ validate: true }) user: NewUserDto) {
    return { id: 1, name: user.name, email: user.email, age: user.age };
  }
}

const port = Number(process.argv[2]);
const app = express();
if (process.argv.includes('--rate-limit')) {
  app.use(rateLimit({ windowMs: 60_000, limit: 1_000_000_000, standardHeaders: 'draft-6', legacyHeaders: false }));
}
useExpressServer(app, { controllers: [HelloController, UsersController], defaultErrorHandler: true });
app.listen(port, '127.0.0.1');
