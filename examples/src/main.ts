import { createApp } from './app.js';

const app = createApp();
const { host, port } = await app.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1');

console.log(`Bookshop listening on http://${host}:${port}\n`);
for (const route of app.routes) {
  console.log(`  ${route.method.padEnd(6)} ${route.path.padEnd(28)} ${route.controller.name}.${route.handler}`);
}
console.log('\nTry: curl "http://127.0.0.1:%d/books?genre=science&sort=desc"', port);

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void app.close());
