// The Kiln side of the WebSocket echo benchmark (websocket.bench.mjs): one typed echo route, and a
// route that reports the process's memory. Listens on PORT (0: any) and prints it.
import { Controller, Get, WebSocket, createServer, type SocketHandlers } from '@kiln/core';

interface Echo {
  n: number;
  text: string;
}

@Controller('/')
class EchoController {
  @WebSocket('/echo')
  echo(): SocketHandlers<Echo, Echo> {
    return { message: (socket, message) => socket.send(message) };
  }

  @Get('/memory')
  memory() {
    (globalThis as { gc?: () => void }).gc?.();
    return { rss: process.memoryUsage().rss, heapUsed: process.memoryUsage().heapUsed };
  }
}

const app = createServer({ controllers: [EchoController], webSocket: { messagesPerSecond: 1_000_000, maxConnections: 100_000 } });
const { port } = await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
console.log(`listening ${port}`);
