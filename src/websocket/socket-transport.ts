/**
 * What a runtime's WebSocket gives a session: the few calls Kiln makes on the `ws` package's
 * socket (Node), Bun's `ServerWebSocket`, Deno's and workerd's `WebSocket`. Each adapter also
 * tells the session what happens (a message, a pong, the close), through its methods.
 */
export interface SocketTransport {
  send(text: string): void;
  /** Starts the closing handshake. */
  close(code: number, reason: string): void;
  /** Cuts the connection without a closing handshake (a dead peer). */
  terminate(): void;
  /** Bytes queued and not yet written to the network. */
  readonly bufferedAmount: number;
  /** Sends a ping frame; absent where the runtime keeps connections alive itself (Deno, workerd). */
  readonly ping?: () => void;
}
