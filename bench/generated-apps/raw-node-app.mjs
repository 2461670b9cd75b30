// A generated hand-written node:http application with the same routes: the baseline for start-up
// time and memory. Plain JavaScript, so it needs no build.
import { controllersFor } from './route-spread.mjs';

export function rawNodeApp(routeCount) {
  const routes = controllersFor(routeCount).flatMap((c) => c.routes.map((index) => ({ index, prefix: `/c${c.index}/r${index % 10}/` })));
  return {
    'dist/main.js': `import http from 'node:http';
import { parse } from 'node:querystring';

const routes = new Map([
${routes.map((r) => `  ['${r.prefix}', ${r.index}],`).join('\n')}
]);

http.createServer((req, res) => {
  const question = req.url.indexOf('?');
  const path = question === -1 ? req.url : req.url.slice(0, question);
  const slash = path.lastIndexOf('/');
  const route = req.method === 'GET' ? routes.get(path.slice(0, slash + 1)) : undefined;
  const body = route === undefined
    ? JSON.stringify({ error: 'Not Found' })
    : JSON.stringify({ route, id: Number(path.slice(slash + 1)), q: parse(question === -1 ? '' : req.url.slice(question + 1)).q });
  res.writeHead(route === undefined ? 404 : 200, { 'content-type': 'application/json' });
  res.end(body);
}).listen(Number(process.argv[2]), '127.0.0.1');
`,
  };
}
