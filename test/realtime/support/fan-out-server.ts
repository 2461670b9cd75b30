// One process of the fan-out test (test/realtime/sse-fan-out.test.ts): a Kiln server whose
// TopicHub goes through Redis (REDIS_URL), with an SSE route that streams the topic and a route
// that publishes to it. Prints its port once listening.
import { Body, Controller, Get, Post, Req, Sse, sseEvent, createServer, type KilnRequest, type SseEvent } from '@kiln/core';
import { redisTransport, TopicHub } from '@kiln/core/realtime';
import { Redis } from 'ioredis';
import { listenUntilTerminated } from '../../support/listening-process.js';

interface Tick {
  n: number;
  label: string;
}

const publisher = new Redis(process.env.REDIS_URL!);
const hub = new TopicHub<Tick>({ transport: redisTransport({ publisher, subscriber: publisher.duplicate(), prefix: 'fan-out:' }) });

@Controller('/')
class TicksController {
  @Get('/ticks')
  @Sse({ heartbeat: 0 })
  async *ticks(@Req() req: KilnRequest): AsyncGenerator<Tick | SseEvent<Tick>> {
    const subscription = hub.subscribe('ticks', { signal: req.signal });
    await subscription.ready;
    yield sseEvent({ n: 0, label: `subscribed on ${process.pid}` }, { event: 'ready' });
    for await (const tick of subscription) yield tick;
  }

  @Post('/publish')
  async publish(@Body() tick: Tick) {
    await hub.publish('ticks', tick);
    return { published: process.pid };
  }
}

const app = createServer({ controllers: [TicksController] });
await listenUntilTerminated(app, async () => {
  await hub.close();
  publisher.disconnect();
});
