// Requests Kiln's own server refuses before any middleware runs, because they ask for something
// other than an HTTP answer: a protocol switch nobody accepts, a tunnel, an expectation Kiln cannot
// meet. Each gets the server's error body; those that leave the connection in an unknown state close it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorFormat } from '../../response/error-format.js';
import { writeErrorAnswer } from './node-response.js';
import { answerOnSocket } from './socket-answer.js';

/**
 * `Upgrade: websocket` (or any protocol) on a server with no upgrade handler. Node's parser has
 * already stopped reading the connection as HTTP, so whatever the client pipelined after it is
 * never answered: refuse the upgrade and close the connection instead of serving it as a plain
 * request on a connection that then hangs.
 */
export function refuseUpgrade(errors: ErrorFormat, _request: IncomingMessage, socket: Duplex): void {
  answerOnSocket(socket, errors, 400, 'This server does not switch protocols: Upgrade is not supported');
}

/** `CONNECT host:port`: a request for a tunnel, which only a proxy opens. */
export function refuseConnect(errors: ErrorFormat, _request: IncomingMessage, socket: Duplex): void {
  answerOnSocket(socket, errors, 501, 'CONNECT is not supported: this server is not a proxy');
}

/** An `Expect` other than `100-continue` (RFC 9110: answer 417). Nothing was read, so the connection stays usable. */
export function refuseExpectation(errors: ErrorFormat, _request: IncomingMessage, response: ServerResponse): void {
  writeErrorAnswer(response, errors, 417, 'The only expectation this server meets is Expect: 100-continue');
}
