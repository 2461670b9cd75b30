// Requests Kiln's own server refuses before any middleware runs, because they ask for something
// other than an HTTP answer: a protocol switch nobody accepts, a tunnel, an expectation Kiln cannot
// meet. Each gets the JSON error body; those that leave the connection in an unknown state close it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody } from '../../response/error-body.js';
import { writeJson } from './node-response.js';
import { answerOnSocket } from './socket-answer.js';

/**
 * `Upgrade: websocket` (or any protocol) on a server with no upgrade handler. Node's parser has
 * already stopped reading the connection as HTTP, so whatever the client pipelined after it is
 * never answered: refuse the upgrade and close the connection instead of serving it as a plain
 * request on a connection that then hangs.
 */
export function refuseUpgrade(_request: IncomingMessage, socket: Duplex): void {
  answerOnSocket(socket, 400, 'This server does not switch protocols: Upgrade is not supported');
}

/** `CONNECT host:port`: a request for a tunnel, which only a proxy opens. */
export function refuseConnect(_request: IncomingMessage, socket: Duplex): void {
  answerOnSocket(socket, 501, 'CONNECT is not supported: this server is not a proxy');
}

/** An `Expect` other than `100-continue` (RFC 9110: answer 417). Nothing was read, so the connection stays usable. */
export function refuseExpectation(_request: IncomingMessage, response: ServerResponse): void {
  writeJson(response, 417, errorBody(417, 'The only expectation this server meets is Expect: 100-continue'));
}
