import type { CompiledRoute } from '../app/route-table.js';
import type { MiddlewareFunction } from '../middleware.js';
import type { RequestCore } from '../request/kiln-request.js';
import { errorToWebResponse, valueToWebResponse } from '../response/web-response.js';
import type { RouteDecision, UnroutedDecision } from '../router/route-decision.js';
import { kErrorFormat, kOversizedBody, kSerializer, kStatus } from '../symbols.js';
import { HttpError } from '../http-error.js';
import { isPromiseLike } from '../is-promise-like.js';
import { reasonPhrase } from '../response/reason-phrase.js';
import { withinDeadline } from './handler-deadline.js';
import { acceptsEventStream } from '../sse/accepts-event-stream.js';
import { eventStreamResponse } from '../sse/event-stream-response.js';
import { acceptSocket } from '../websocket/socket-acceptance.js';

// hot path: binder, then handler; stays synchronous unless one of them is async
function invokeHandler(route: CompiledRoute, req: RequestCore): unknown {
  req[kStatus] = route.status;
  req[kSerializer] = route.serializer;
  // A body the server will not read is refused here, after the middlewares and before the binder.
  const oversized = req[kOversizedBody]();
  if (oversized !== undefined) throw oversized;
  if (route.eventStream !== undefined) return invokeEventStream(route, req);
  const result = route.socket === undefined ? callHandler(route, req) : acceptSocket(route, req, () => callHandler(route, req));
  // A handler that answers within the call cannot be late; one that returns a promise races its deadline.
  return route.timeout > 0 && isPromiseLike(result) ? withinDeadline(req, route, result) : result;
}

/** An `@Sse()` route: refused before its handler runs when the client accepts no event stream (406). */
function invokeEventStream(route: CompiledRoute, req: RequestCore): unknown {
  if (!acceptsEventStream(req.headers.get('accept'))) {
    throw new HttpError(406, `${req.method} ${route.info.path} answers text/event-stream only`);
  }
  const where = `${route.info.method} ${route.info.path} (${route.name})`;
  const settings = route.eventStream!;
  const answer = (value: unknown) => eventStreamResponse(req, settings, route.serializer, route.status, value, where);
  const result = callHandler(route, req);
  if (!isPromiseLike(result)) return answer(result);
  return (route.timeout > 0 ? withinDeadline(req, route, result) : Promise.resolve(result)).then(answer);
}

function callHandler(route: CompiledRoute, req: RequestCore): unknown {
  if (route.binder === undefined) return route.handler.call(route.instance);
  const args = route.binder(req, route.strict);
  if (isPromiseLike(args)) return args.then((resolved) => route.handler.apply(route.instance, resolved as unknown[]));
  return route.handler.apply(route.instance, args);
}

/**
 * What a request no route took ends in, once every application middleware let it through:
 * 404, 405 with `Allow`, or 204 with `Allow` for OPTIONS. A plain value with a status, like a
 * handler's, so both transports write it the way they write any other.
 */
function answerUnrouted(req: RequestCore, decision: UnroutedDecision): unknown {
  if (decision.allow !== undefined) req.setResponseHeader('allow', decision.allow);
  if (decision.kind === 'options') {
    req[kStatus] = 204;
    return undefined;
  }
  const status = decision.kind === 'not-found' ? 404 : 405;
  const message = status === 404 ? `No route for ${req.method} ${req.path}` : `Method ${req.method} is not allowed for ${req.path}`;
  // Problem details are an error answer's own content type: the error writers give it.
  if (req[kErrorFormat].option === 'problem+json') throw new HttpError(status, message);
  req[kStatus] = status;
  return { error: reasonPhrase(status), message };
}

function finish(req: RequestCore, decision: RouteDecision<CompiledRoute>): unknown {
  return decision.route !== undefined ? invokeHandler(decision.route, req) : answerUnrouted(req, decision);
}

/** The rest of the chain as a Response, for a middleware that called `next()`. */
function downstreamResponse(req: RequestCore, chain: readonly MiddlewareFunction[], decision: RouteDecision<CompiledRoute>, from: number) {
  return new Promise<unknown>((resolve) => resolve(runFrom(req, chain, decision, from))).then(
    (value) => valueToWebResponse(req, value),
    (error) => errorToWebResponse(req, error),
  );
}

/** After a middleware: its own value ends the chain; `undefined` goes on to the next step. */
function continueAfter(
  req: RequestCore,
  chain: readonly MiddlewareFunction[],
  decision: RouteDecision<CompiledRoute>,
  index: number,
  value: unknown,
): unknown {
  if (value === undefined) return runFrom(req, chain, decision, index + 1);
  // A middleware's own value is a plain 200, whatever status the handler would have had.
  if (!(value instanceof Response)) {
    req[kStatus] = undefined;
    // not the handler's value: its type says nothing about it
    req[kSerializer] = undefined;
  }
  return value;
}

// hot path: every middleware gets a `next`; a middleware that never calls it (the rate limiter)
// costs this one small closure, and no promise or Response
function runFrom(req: RequestCore, chain: readonly MiddlewareFunction[], decision: RouteDecision<CompiledRoute>, index: number): unknown {
  if (index === chain.length) return finish(req, decision);
  let downstream: Promise<Response> | undefined;
  const next = (): Promise<Response> => (downstream ??= downstreamResponse(req, chain, decision, index + 1));
  const result = chain[index]!(req, next);
  if (isPromiseLike(result)) {
    return result.then((value) =>
      // once next() has run, the downstream Response is the result unless the middleware returned its own
      value === undefined && downstream !== undefined ? downstream : continueAfter(req, chain, decision, index, value),
    );
  }
  return result === undefined && downstream !== undefined ? downstream : continueAfter(req, chain, decision, index, result);
}

/**
 * Runs a chain of middlewares, then what the route decision ends in: the route's binder and
 * handler, or the 404/405/OPTIONS answer. Returns a plain value, a Response, or a promise of
 * one; throws or rejects with what was thrown.
 */
export function runChain(req: RequestCore, chain: readonly MiddlewareFunction[], decision: RouteDecision<CompiledRoute>): unknown {
  return chain.length === 0 ? finish(req, decision) : runFrom(req, chain, decision, 0);
}
