// Source of a generated Kiln application whose controllers each take three services through
// their constructors (a chain: Audit -> Repository -> Service), resolved by @kiln/core/transformer.
import { kilnTsconfig } from './kiln-tsconfig.mjs';
import { controllersFor } from './route-spread.mjs';

export function kilnServicesApp(routeCount) {
  const files = {};
  const controllers = controllersFor(routeCount);
  for (const controller of controllers) {
    const n = controller.index;
    files[`src/controller-${n}.ts`] = `import { Controller, Get, Injectable, Param, Query } from '@kiln/core';

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

@Controller('/c${n}')
export class Controller${n} {
  constructor(readonly service: Service${n}, readonly repository: Repository${n}, readonly audit: Audit${n}) {}

${controller.routes
  .map(
    (index) => `  @Get('/r${index % 10}/:id')
  r${index % 10}(@Param('id') id: number, @Query('q') q: string) {
    return { route: ${index}, id, q, found: this.repository.find(id).id };
  }
`,
  )
  .join('\n')}}
`;
  }
  files['src/main.ts'] = `import { createServer } from '@kiln/core';
${controllers.map((c) => `import { Controller${c.index} } from './controller-${c.index}.js';`).join('\n')}

const app = createServer({ controllers: [${controllers.map((c) => `Controller${c.index}`).join(', ')}] });
await app.listen(Number(process.argv[2]), '127.0.0.1');
`;
  files['tsconfig.json'] = kilnTsconfig(true);
  return files;
}
