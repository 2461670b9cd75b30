// What a transport does with a WebSocket upgrade request: the handshake checked, the request run
// through the route's middlewares and handler like any other, then either an HTTP answer (a
// guard's 401, a 404, a 503 past maxConnections) or a session to open on the runtime's socket.
import { FetchRequest, type SocketAddressOf } from '../request/fetch-request.js';
import type { RequestCore, RequestOptions } from '../request/kiln-request.js';
import { answerWithResponse } from '../response/web-response-answer.js';
import { handshakeProblem } from './handshake.js';
import type { OpenSockets } from './open-sockets.js';
import { acceptanceOf } from './socket-acceptance.js';
import { allowUpgrade } from './upgradable-requests.js';
import { SocketSession } from './socket-session.js';

/** An HTTP answer instead of a connection, or the session to open with the headers the chain added. */
export type UpgradeDecision = { readonly response: Response } | { readonly session: SocketSession; readonly headers: Headers };

/** What a listener calls with a request that asks for a WebSocket (`Upgrade: websocket`). */
export type UpgradeHandler = (
  request: Request,
  socketAddress?: string | SocketAddressOf,
  context?: unknown,
) => UpgradeDecision | Promise<UpgradeDecision>;

/** Headers of the chain's answer that describe a body or a connection: never copied onto the 101. */
const notForTheUpgrade = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'upgrade',
  'keep-alive',
  'vary',
]);

function refusal(options: RequestOptions, status: number, message: string, headers: Readonly<Record<string, string>> = {}) {
  const { errors } = options;
  return { response: new Response(errors.body(status, message), { status, headers: { 'content-type': errors.contentType, ...headers } }) };
}

function decided(req: RequestCore, response: Response, sockets: OpenSockets, options: RequestOptions): UpgradeDecision {
  const acceptance = acceptanceOf(req);
  if (acceptance === undefined || response.status >= 300) return { response };
  if (sockets.full) return refusal(options, 503, `This server holds ${sockets.limits.maxConnections} WebSocket connections already`);
  const headers = new Headers();
  response.headers.forEach((value, name) => {
    if (!notForTheUpgrade.has(name) && !name.startsWith('sec-websocket-')) headers.append(name, value);
  });
  const session = new SocketSession(acceptance.handlers, acceptance.codec, acceptance.route, sockets);
  sockets.accepted(session);
  return { session, headers };
}

/** Decides one upgrade request (see the file's comment). Never throws: a failure is an answer. */
export function decideUpgrade(
  request: Request,
  options: RequestOptions,
  handle: (req: RequestCore) => unknown,
  sockets: OpenSockets,
  socketAddress?: string | SocketAddressOf,
  context?: unknown,
): UpgradeDecision | Promise<UpgradeDecision> {
  const problem = handshakeProblem(request.method, request.headers);
  if (problem !== undefined) return refusal(options, problem.status, problem.message, problem.headers);
  if (options.lifecycle.closing) return refusal(options, 503, 'The server is shutting down');
  if (sockets.full) return refusal(options, 503, `This server holds ${sockets.limits.maxConnections} WebSocket connections already`);
  const req = new FetchRequest(request, options, socketAddress, context);
  allowUpgrade(req);
  const answer = answerWithResponse(req, handle);
  return answer instanceof Promise
    ? answer.then((response) => decided(req, response, sockets, options))
    : decided(req, answer, sockets, options);
}
