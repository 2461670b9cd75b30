// The hand-written node:http listener (the bench's raw server) under the node:http options and
// event handlers Kiln's Node listener sets (src/adapter/node/node-listener.ts): what those options cost
// per request, apart from Kiln's own code. For A/B against raw-node.mjs:
//   node bench/profile/interleaved.mjs m 40 raw=bench/http/servers/raw-node.mjs rawopts=bench/profile/raw-node-kiln-options.mjs
// Usage: node raw-node-kiln-options.mjs <port>
import http from 'node:http';
import { createRawListener } from '../http/servers/raw-node-listener.mjs';

const port = Number(process.argv[2]);
const server = http.createServer(
  {
    headersTimeout: 10_000,
    requestTimeout: 30_000,
    keepAliveTimeout: 5_000,
    maxHeaderSize: 16 * 1024,
    requireHostHeader: false,
    connectionsCheckingInterval: 1_000,
    optimizeEmptyRequests: true,
  },
  createRawListener(),
);
server.on('clientError', (_error, socket) => socket.destroy());
server.on('upgrade', (_req, socket) => socket.destroy());
server.on('connect', (_req, socket) => socket.destroy());
server.on('checkContinue', (req, res) => {
  res.writeContinue();
  server.emit('request', req, res);
});
server.on('checkExpectation', (_req, res) => res.writeHead(417).end());
server.maxHeadersCount = 1_001;
server.listen(port, '127.0.0.1');
