// One process of the WebSocket fan-out test (test/websocket/websocket-fan-out.test.ts): a Kiln
// server whose WebSocket rooms go through a TopicHub over Redis (REDIS_URL), with a room route and
// an HTTP route that publishes to a room. Prints its port once listening.
import { Body, Controller, Param, Post, WebSocket, createServer, type KilnServer, type SocketHandlers } from '@kiln/core';
import { redisTransport, TopicHub } from '@kiln/core/realtime';
import { Redis } from 'ioredis';
import { listenUntilTerminated } from '../../support/listening-process.js';

interface ChatIn {
  text: string;
}
interface ChatOut {
  from: string;
  text: string;
}

const publisher = new Redis(process.env.REDIS_URL!);
const hub = new TopicHub({ transport: redisTransport({ publisher, subscriber: publisher.duplicate(), prefix: 'ws-fan-out:' }) });
let app: KilnServer;

@Controller('/')
class RoomsController {
  @WebSocket('/rooms/:room')
  join(@Param('room') room: string): SocketHandlers<ChatIn, ChatOut> {
    return {
      open: async (socket) => {
        // Once the hub listens to the room, the client is told: nothing published after is missed.
        await socket.subscribe(room);
        socket.send({ from: `process ${process.pid}`, text: 'subscribed' });
      },
      message: (socket, message) => socket.publish(room, { from: `process ${process.pid}`, text: message.text }),
    };
  }

  @Post('/rooms/:room')
  async announce(@Param('room') room: string, @Body() message: ChatOut) {
    await app.publish(room, message);
    return { published: process.pid };
  }
}

app = createServer({ controllers: [RoomsController], webSocket: { hub } });
await listenUntilTerminated(app, async () => {
  await hub.close();
  publisher.disconnect();
});
