// Express + routing-controllers: parameter decorators converted by reflection (class-transformer),
// the body checked by class-validator; scenario (d) with express-rate-limit in front.
// Usage: node server.js <port> [--rate-limit]
import 'reflect-metadata';
import express from 'express';
import { rateLimit } from 'express-rate-limit';
import {
  Body,
  Controller,
  Delete,
  Get,
  HeaderParam,
  JsonController,
  OnUndefined,
  Param,
  Post,
  QueryParam,
  Res,
  UseBefore,
  useExpressServer,
} from 'routing-controllers';
import { NewUserDto } from '../../new-user-dto.js';
import { userList, type UserSummary } from '../../user-list.js';

const reportCsv = 'id,name\n1,Ada\n2,Grace\n';
const limiter = () => rateLimit({ windowMs: 60_000, limit: 1_000_000_000, standardHeaders: 'draft-6', legacyHeaders: false });

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

  @Get('/')
  list(): UserSummary[] {
    return userList;
  }

  @Delete('/:id')
  @OnUndefined(204)
  remove(@Param('id') _id: number): void {}
}

// The mixed traffic's other routes (mixed-traffic.mjs).
@JsonController()
class MixedController {
  @Get('/items/:id')
  item(@Param('id') id: number) {
    return { id };
  }

  @Get('/search')
  search(@QueryParam('tags', { type: String, isArray: true }) tags: string[], @QueryParam('limit') limit: number) {
    return { tags: tags ?? [], limit };
  }

  @Get('/whoami')
  whoami(@HeaderParam('x-user') user: string) {
    return { user };
  }

  @Get('/limited')
  @UseBefore(limiter())
  limited() {
    return { limited: true };
  }
}

@Controller()
class ReportController {
  @Get('/report.csv')
  report(@Res() res: { type(value: string): { send(body: string): void } }) {
    res.type('text/csv; charset=utf-8').send(reportCsv);
    return res;
  }

  @Get('/report-web.csv')
  reportWeb(@Res() res: { type(value: string): { send(body: string): void } }) {
    res.type('text/csv; charset=utf-8').send(reportCsv);
    return res;
  }
}

const port = Number(process.argv[2]);
const app = express();
if (process.argv.includes('--rate-limit')) {
  app.use(limiter());
}
useExpressServer(app, { controllers: [HelloController, UsersController, MixedController, ReportController], defaultErrorHandler: true });
app.listen(port, '127.0.0.1');
