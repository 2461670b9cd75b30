import { Controller, HttpError, Param, Req, WebSocket, type KilnRequest, type MiddlewareFunction, type SocketHandlers } from '@kiln/core';
import { sessions } from '../account/sessions.js';

/** What a reader sends to a room. */
export interface ChatMessage {
  text: string;
}

/** What every reader in the room receives: who said it, and when (ISO 8601). */
export interface ChatPost {
  from: string;
  text: string;
  at: string;
}

/** The upgrade is an ordinary request first: without a signed-in session, 401 and no connection. */
const signedIn: MiddlewareFunction = (req) => {
  if (req.session.get('reader') === undefined) throw new HttpError(401, 'Sign in to chat');
};

/**
 * A chat room per book club, for signed-in readers (the session cookie of POST /account/login).
 * Each room is a topic of the server's hub: what a reader says reaches everyone in that room only.
 */
@Controller('/rooms', sessions)
export class ChatController {
  // Browsers send the session cookie with any page's handshake (CORS does not apply to WebSockets):
  // only the bookshop's own pages may open a room. `[]` is Kiln's default, the server's own origin,
  // written here so that a server-wide webSocket.allowedOrigins cannot widen it for this route.
  @WebSocket('/:room', { allowedOrigins: [] }, signedIn)
  join(@Param('room') room: string, @Req() req: KilnRequest): SocketHandlers<ChatMessage, ChatPost> {
    const reader = req.session.get('reader')!;
    // Prefixed: the hub's topics are shared with anything else that publishes (an SSE stream, a job).
    const topic = `room:${room}`;
    const post = (from: string, text: string): ChatPost => ({ from, text, at: new Date().toISOString() });
    return {
      open: async (socket) => {
        await socket.subscribe(topic);
        socket.send(post('bookshop', `${reader} joined ${room}`));
      },
      message: (socket, message) => socket.publish(topic, post(reader, message.text)),
    };
  }
}
