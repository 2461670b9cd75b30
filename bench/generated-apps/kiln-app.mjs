// Source of a generated Kiln application. With `transformer`, parameters use @Param/@Query and
// @kiln/core/transformer compiles the binders; without it, the binders are written out in the shape
// the transformer emits (@compiledBinder with straight-line conversion).
import { kilnTsconfig } from './kiln-tsconfig.mjs';
import { controllersFor } from './route-spread.mjs';

function route(index, transformer) {
  const method = `r${index % 10}`;
  if (transformer) {
    return `  @Get('/${method}/:id')
  ${method}(@Param('id') id: number, @Query('q') q: string) {
    return { route: ${index}, id, q };
  }
`;
  }
  return `  @Get('/${method}/:id')
  @compiledBinder((req) => [Number(req.params.id), req.query.q])
  ${method}(id: number, q: string) {
    return { route: ${index}, id, q };
  }
`;
}

export function kilnApp(routeCount, { transformer }) {
  const files = {};
  const controllers = controllersFor(routeCount);
  const imports = transformer ? 'Controller, Get, Param, Query' : 'Controller, Get, compiledBinder';
  for (const controller of controllers) {
    files[`src/controller-${controller.index}.ts`] = `import { ${imports} } from '@kiln/core';

@Controller('/c${controller.index}')
export class Controller${controller.index} {
${controller.routes.map((index) => route(index, transformer)).join('\n')}}
`;
  }
  files['src/main.ts'] = `import { createServer } from '@kiln/core';
${controllers.map((c) => `import { Controller${c.index} } from './controller-${c.index}.js';`).join('\n')}

const app = createServer({ controllers: [${controllers.map((c) => `Controller${c.index}`).join(', ')}] });
await app.listen(Number(process.argv[2]), '127.0.0.1');
`;
  files['tsconfig.json'] = kilnTsconfig(transformer);
  return files;
}
