// Hand-written node:http: the ceiling (see raw-node-listener.mjs).
// Usage: node raw-node.mjs <port> [--rate-limit]
import http from 'node:http';
import { createRawListener } from './raw-node-listener.mjs';

const port = Number(process.argv[2]);
const server = http.createServer(createRawListener({ rateLimited: process.argv.includes('--rate-limit') }));
server.keepAliveTimeout = 5_000;
server.listen(port, '127.0.0.1');
