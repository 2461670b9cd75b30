// One process of the reusePort test: a Kiln app on the port given (0: a free one), every answer
// naming this process in `x-pid`. Prints `listening <port>` or `refused <code> <message>`.
const [, , indexUrl, portText, reuse] = process.argv.length > 2 ? process.argv : ['', '', ...Deno.args];
const { createServer } = await import(indexUrl);
const app = createServer({
  controllers: [],
  middlewares: [(req) => req.setResponseHeader('x-pid', String(process.pid))],
  logger: { level: 'silent' },
});
try {
  const { port } = await app.listen({ port: Number(portText), host: '127.0.0.1', reusePort: reuse === 'reuse' });
  console.log(`listening ${port}`);
} catch (error) {
  console.log(`refused ${error.code} ${error.message}`);
  process.exit(0);
}
