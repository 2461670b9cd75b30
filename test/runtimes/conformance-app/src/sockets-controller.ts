import { Controller, HttpError, Param, WebSocket, type MiddlewareFunction, type SocketHandlers } from '@kiln/core';

export interface ChatIn {
  text: string;
}
export interface ChatOut {
  from: string;
  text: string;
}

const member: MiddlewareFunction = (req) => {
  if (req.headers.get('authorization') !== 'Bearer member') throw new HttpError(401, 'Sign in to chat');
};

/** WebSocket routes, served on every runtime (test/runtimes/websocket.test.ts). */
@Controller('/sockets')
export class SocketsController {
  @WebSocket('/echo/:name')
  echo(@Param('name') name: string): SocketHandlers<ChatIn, ChatOut> {
    return {
      message: (socket, message) => {
        const reply = { from: name, text: message.text, secret: 'never sent' };
        socket.send(reply);
      },
    };
  }

  @WebSocket('/members', member)
  members(): SocketHandlers<ChatIn, ChatOut> {
    return { open: (socket) => socket.send({ from: 'server', text: 'welcome' }) };
  }

  @WebSocket('/rooms/:room')
  room(@Param('room') room: string): SocketHandlers<ChatIn, ChatOut> {
    return {
      open: async (socket) => {
        await socket.subscribe(room);
        socket.send({ from: 'server', text: `joined ${room}` });
      },
      message: (socket, message) => socket.publish(room, { from: room, text: message.text }),
    };
  }
}
