// Source of a generated NestJS application (express platform) with the same three providers per
// controller as kiln-services-app.mjs, injected through design:paramtypes at run time.
import { controllersFor } from './route-spread.mjs';
import { legacyTsconfig } from './legacy-tsconfig.mjs';

export function nestjsServicesApp(routeCount) {
  const files = {};
  const controllers = controllersFor(routeCount);
  for (const controller of controllers) {
    const n = controller.index;
    files[`src/controller-${n}.ts`] = `import { Controller, Get, Injectable, Param, ParseIntPipe, Query } from '@nestjs/common';

@Injectable()
export class Audit${n} { readonly label = 'audit ${n}'; }

@Injectable()
export class Repository${n} {
  constructor(readonly audit: Audit${n}) {}
  find(id: number) { return { id, audit: this.audit.label }; }
}

@Injectable()
export class Service${n} {
  constructor(readonly repository: Repository${n}, readonly audit: Audit${n}) {}
}

@Controller('c${n}')
export class Controller${n} {
  constructor(readonly service: Service${n}, readonly repository: Repository${n}, readonly audit: Audit${n}) {}

${controller.routes
  .map(
    (index) => `  @Get('r${index % 10}/:id')
  r${index % 10}(@Param('id', ParseIntPipe) id: number, @Query('q') q: string) {
    return { route: ${index}, id, q, found: this.repository.find(id).id };
  }
`,
  )
  .join('\n')}}
`;
  }
  const names = (prefix) => controllers.map((c) => `${prefix}${c.index}`).join(', ');
  files['src/main.ts'] = `import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
${controllers.map((c) => `import { Audit${c.index}, Controller${c.index}, Repository${c.index}, Service${c.index} } from './controller-${c.index}.js';`).join('\n')}

@Module({ controllers: [${names('Controller')}], providers: [${names('Audit')}, ${names('Repository')}, ${names('Service')}] })
class AppModule {}

const app = await NestFactory.create(AppModule, { logger: false });
await app.listen(Number(process.argv[2]), '127.0.0.1');
`;
  files['tsconfig.json'] = legacyTsconfig();
  return files;
}
