/**
 * One WebSocket connection, as its handlers see it. `Out` is the type of the messages the route
 * sends: each is projected to it (a property the type does not declare never leaves) and sent as
 * JSON text.
 *
 * @example
 * ```ts
 * open(socket) { socket.subscribe('lobby'); socket.send({ kind: 'welcome', users: 3 }); }
 * ```
 */
export interface Socket<Out = unknown> {
  /**
   * Sends one message. Returns false when it was not sent: the connection is closing, or the
   * client reads so slowly that more than `webSocket.maxBufferedAmount` bytes wait for it (the
   * connection is then closed with 1008).
   */
  send(message: Out): boolean;
  /** Starts the closing handshake (code 1000 by default; 1000 or 3000–4999). */
  close(code?: number, reason?: string): void;
  /**
   * Receives what is published to `topic` (a room) from now on: by any socket, by `app.publish`,
   * or by `hub.publish` on the `webSocket.hub` (every process, with a transport). Resolves once
   * the hub listens to the topic (at once in-process; one Redis round trip otherwise).
   */
  subscribe(topic: string): Promise<void>;
  unsubscribe(topic: string): void;
  /**
   * Sends `message` to every socket subscribed to `topic`, this one included, on every process
   * the hub reaches; each receives it projected to its own route's `Out` type. Resolves once
   * delivered in-process, or once the hub's transport took it; never rejects (a message the hub
   * refuses is logged).
   */
  publish(topic: string, message: Out): Promise<void>;
  /** The topics this socket is subscribed to. */
  readonly topics: ReadonlySet<string>;
  /** Bytes sent and not yet written to the network: the runtime's buffered amount. */
  readonly bufferedAmount: number;
  /** Whether messages can still be sent (false once either side began to close). */
  readonly isOpen: boolean;
}

/**
 * What a `@WebSocket` route's handler returns: the connection's event handlers. `In` is the type
 * of the messages the client sends: each is parsed as JSON and checked against it by a typia
 * validator the build writes (a message that is not JSON, or does not fit, closes with 1007).
 *
 * @example
 * ```ts
 * @WebSocket('/echo') echo(): SocketHandlers<{ text: string }, { text: string }> {
 *   return { message: (socket, message) => socket.send({ text: message.text }) };
 * }
 * ```
 */
export interface SocketHandlers<In = unknown, Out = unknown> {
  /** The connection is open: the upgrade was accepted. */
  open?(socket: Socket<Out>): unknown;
  /** One message of the client's, parsed and checked against `In`. Called in arrival order, not awaited. */
  message?(socket: Socket<Out>, message: In): unknown;
  /** The connection closed, whichever side closed it (1006: cut without a closing handshake). */
  close?(socket: Socket<Out>, code: number, reason: string): unknown;
}
