// Source of a generated Express + routing-controllers application.
import { controllersFor } from './route-spread.mjs';
import { legacyTsconfig } from './legacy-tsconfig.mjs';

export function routingControllersApp(routeCount) {
  const files = {};
  const controllers = controllersFor(routeCount);
  for (const controller of controllers) {
    files[`src/controller-${controller.index}.ts`] = `import { Get, JsonController, Param, QueryParam } from 'routing-controllers';

@JsonController('/c${controller.index}')
export class Controller${controller.index} {
${controller.routes
  .map(
    (index) => `  @Get('/r${index % 10}/:id')
  r${index % 10}(@Param('id') id: number, @QueryParam('q') q: string) {
    return { route: ${index}, id, q };
  }
`,
  )
  .join('\n')}}
`;
  }
  files['src/main.ts'] = `import 'reflect-metadata';
import { createExpressServer } from 'routing-controllers';
${controllers.map((c) => `import { Controller${c.index} } from './controller-${c.index}.js';`).join('\n')}

const app = createExpressServer({ controllers: [${controllers.map((c) => `Controller${c.index}`).join(', ')}] });
app.listen(Number(process.argv[2]), '127.0.0.1');
`;
  files['tsconfig.json'] = legacyTsconfig();
  return files;
}
