// Source of a generated NestJS application (express platform), parameters through ParseIntPipe.
import { controllersFor } from './route-spread.mjs';
import { legacyTsconfig } from './legacy-tsconfig.mjs';

export function nestjsApp(routeCount) {
  const files = {};
  const controllers = controllersFor(routeCount);
  for (const controller of controllers) {
    files[`src/controller-${controller.index}.ts`] = `import { Controller, Get, Param, ParseIntPipe, Query } from '@nestjs/common';

@Controller('c${controller.index}')
export class Controller${controller.index} {
${controller.routes
  .map(
    (index) => `  @Get('r${index % 10}/:id')
  r${index % 10}(@Param('id', ParseIntPipe) id: number, @Query('q') q: string) {
    return { route: ${index}, id, q };
  }
`,
  )
  .join('\n')}}
`;
  }
  files['src/main.ts'] = `import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
${controllers.map((c) => `import { Controller${c.index} } from './controller-${c.index}.js';`).join('\n')}

@Module({ controllers: [${controllers.map((c) => `Controller${c.index}`).join(', ')}] })
class AppModule {}

const app = await NestFactory.create(AppModule, { logger: false });
await app.listen(Number(process.argv[2]), '127.0.0.1');
`;
  files['tsconfig.json'] = legacyTsconfig();
  return files;
}
