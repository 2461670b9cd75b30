import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createServer, type KilnConfig, type KilnServer } from '@kiln/core';

export interface PeerServer {
  app: KilnServer;
  base: string;
  close(): Promise<void>;
}

/**
 * A Kiln app behind `app.handler` on 127.0.0.1 whose connections report `peer` as their remote
 * address. A test machine has no public peer to connect from, so the socket says what one would:
 * everything else (the HTTP parser, the request, the pipeline) is the real path.
 */
export async function servedFromPeer(config: KilnConfig, peer: string): Promise<PeerServer> {
  const app = createServer(config);
  const server: Server = createHttpServer(app.handler);
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    Object.defineProperty(socket, 'remoteAddress', { value: peer });
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    app,
    base: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
    },
  };
}
