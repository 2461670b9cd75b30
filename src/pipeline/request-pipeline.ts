import type { CompiledRoute, RouteTable } from '../app/route-table.js';
import { HttpError } from '../http-error.js';
import type { MiddlewareFunction } from '../middleware.js';
import type { RequestCore } from '../request/kiln-request.js';
import { targetPath } from '../router/request-target.js';
import { Router } from '../router/router.js';
import { kTarget } from '../symbols.js';
import { runChain } from './middleware-chain.js';
import type { DecisionTrace } from '../logging/debug-trace.js';
import type { RequestTelemetry } from '../telemetry/request-telemetry.js';

function routablePath(target: string): string {
  try {
    return targetPath(target);
  } catch {
    throw new HttpError(400, 'Malformed request target');
  }
}

/**
 * The one way a request goes, whichever transport brought it: target → normalised path → route
 * decision → middlewares → binder → handler → result. The socket handler and `app.fetch` differ
 * only in how they build the request and how they write what `handle` gives back.
 */
export class RequestPipeline {
  readonly #router = new Router<CompiledRoute>();
  readonly #appChain: readonly MiddlewareFunction[];
  readonly #maxUrlLength: number;
  readonly #trace: DecisionTrace | undefined;
  readonly #telemetry: RequestTelemetry | undefined;

  /**
   * `trace` (the `debug` option) sees every request's route decision; `telemetry` (the
   * `telemetry` option) runs every routed request's chain inside its server span.
   */
  constructor(table: RouteTable, maxUrlLength: number, trace?: DecisionTrace, telemetry?: RequestTelemetry) {
    for (const route of table.routes) this.#router.add(route.info.method, route.info.path, route);
    this.#router.build();
    this.#appChain = table.appChain;
    this.#maxUrlLength = maxUrlLength;
    this.#trace = trace;
    this.#telemetry = telemetry;
  }

  /**
   * Routes a request and runs its chain. Returns a plain value, a `Response`, or a promise of
   * one; throws (or rejects) with what went wrong, an `HttpError` for a target that cannot be
   * routed (414, 400), which no middleware sees.
   */
  // hot path: every request starts here
  handle(req: RequestCore): unknown {
    const target = req[kTarget];
    if (target.length > this.#maxUrlLength) throw new HttpError(414, `Request target is longer than ${this.#maxUrlLength} bytes`);
    const path = routablePath(target);
    const decision = this.#router.find(req.method, path);
    req.path = path;
    if (this.#trace !== undefined) this.#trace(req, decision);
    const route = decision.route;
    let chain = this.#appChain;
    if (route !== undefined) {
      if (decision.params !== undefined) req.params = decision.params;
      req.route = route.info;
      chain = route.middlewares;
    }
    // The span starts once the route is known, so that its name and http.route are there from the start.
    if (this.#telemetry !== undefined) return this.#telemetry.around(req, runChain, chain, decision);
    return runChain(req, chain, decision);
  }
}
