// The `ws` package alone on Node: the same echo (JSON parsed and written again, as Kiln does), and
// the same memory route.
import http from 'node:http';
import { WebSocketServer } from 'ws';

const server = http.createServer((_request, response) => {
  globalThis.gc?.();
  response.end(JSON.stringify({ rss: process.memoryUsage().rss, heapUsed: process.memoryUsage().heapUsed }));
});
const wss = new WebSocketServer({ server, maxPayload: 64 * 1024 });
wss.on('connection', (ws) => ws.on('message', (data) => ws.send(JSON.stringify(JSON.parse(data.toString())))));
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
