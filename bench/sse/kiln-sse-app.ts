// The Kiln side of the SSE benchmark (sse.bench.mjs): a typed event stream that yields as fast as
// each client takes its events, and a route that reports the process's memory. Listens on PORT
// (0: any) and prints it.
import { Controller, Get, Sse, createServer, sseEvent, type SseEvent } from '@kiln/core';

interface Tick {
  n: number;
  text: string;
}

@Controller('/')
class TicksController {
  @Get('/ticks')
  @Sse({ heartbeat: 0 })
  async *ticks(): AsyncGenerator<SseEvent<Tick>> {
    for (let n = 0; ; n++) yield sseEvent({ n, text: 'tick' }, { event: 'tick', id: String(n) });
  }

  /** An idle stream: the head, then nothing (heartbeats off) until the client leaves. */
  @Get('/idle')
  @Sse({ heartbeat: 0 })
  async *idle(): AsyncGenerator<Tick> {
    await new Promise(() => {});
  }

  @Get('/memory')
  memory() {
    (globalThis as { gc?: () => void }).gc?.();
    return { rss: process.memoryUsage().rss, heapUsed: process.memoryUsage().heapUsed };
  }
}

const app = createServer({ controllers: [TicksController] });
const { port } = await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
console.log(`listening ${port}`);
