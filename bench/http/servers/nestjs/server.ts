// NestJS on its Express platform: pipes convert the params, ValidationPipe + class-validator
// check the body; scenario (d) with @nestjs/throttler as a global guard.
// Usage: node server.js <port> [--rate-limit]
import 'reflect-metadata';
import {
  Body,
  Controller,
  Delete,
  Get,
  Header,
  Headers,
  HttpCode,
  Module,
  Param,
  ParseBoolPipe,
  ParseIntPipe,
  Post,
  Query,
  UseGuards,
  ValidationPipe,
  type DynamicModule,
} from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import { ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';
import { NewUserDto } from '../../new-user-dto.js';
import { userList, type UserSummary } from '../../user-list.js';

const reportCsv = 'id,name\n1,Ada\n2,Grace\n';

@Controller('hello')
class HelloController {
  @Get()
  hello() {
    return { hello: 'world' };
  }
}

@Controller('users')
class UsersController {
  @Get(':id')
  get(
    @Param('id', ParseIntPipe) id: number,
    @Query('active', new ParseBoolPipe({ optional: true })) active: boolean | undefined,
    @Query('tags') tags: string | string[] | undefined,
    @Headers('x-request-id') requestId: string,
  ) {
    return { id, active: active ?? false, tags: tags === undefined ? [] : ([] as string[]).concat(tags), requestId };
  }

  @Post()
  @HttpCode(200)
  create(@Body(new ValidationPipe()) user: NewUserDto) {
    return { id: 1, name: user.name, email: user.email, age: user.age };
  }

  @Get()
  list(): UserSummary[] {
    return userList;
  }

  @Delete(':id')
  @HttpCode(204)
  remove(@Param('id', ParseIntPipe) _id: number): void {}
}

// The mixed traffic's other routes (mixed-traffic.mjs).
@Controller()
class MixedController {
  @Get('items/:id')
  item(@Param('id', ParseIntPipe) id: number) {
    return { id };
  }

  @Get('search')
  search(@Query('tags') tags: string | string[] | undefined, @Query('limit', ParseIntPipe) limit: number) {
    return { tags: tags === undefined ? [] : ([] as string[]).concat(tags), limit };
  }

  @Get('whoami')
  whoami(@Headers('x-user') user: string) {
    return { user };
  }

  @Get(['report.csv', 'report-web.csv'])
  @Header('content-type', 'text/csv; charset=utf-8')
  report() {
    return reportCsv;
  }

  @Get('limited')
  @UseGuards(ThrottlerGuard)
  limited() {
    return { limited: true };
  }
}

function appModule(rateLimited: boolean): DynamicModule {
  @Module({})
  class AppModule {}
  return {
    module: AppModule,
    controllers: [HelloController, UsersController, MixedController],
    // The throttler guards every route for (d), and GET /limited only otherwise.
    imports: [ThrottlerModule.forRoot([{ ttl: 60_000, limit: 1_000_000_000 }])],
    providers: rateLimited ? [{ provide: APP_GUARD, useClass: ThrottlerGuard }] : [],
  };
}

const port = Number(process.argv[2]);
const app = await NestFactory.create(appModule(process.argv.includes('--rate-limit')), { logger: false });
await app.listen(port, '127.0.0.1');
