// Bun.serve alone: the same echo (JSON parsed and written again) and memory route.
const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch(request, bunServer) {
    if (bunServer.upgrade(request)) return undefined;
    Bun.gc(true);
    return Response.json({ rss: process.memoryUsage().rss, heapUsed: process.memoryUsage().heapUsed });
  },
  websocket: { message: (ws, message) => ws.send(JSON.stringify(JSON.parse(message))) },
});
console.log(`listening ${server.port}`);
