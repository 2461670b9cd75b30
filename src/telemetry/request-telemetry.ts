// One server span and one duration measure per routed request, through the OpenTelemetry API the
// application hands over: Kiln keeps no context of its own (no AsyncLocalStorage), it runs the
// chain inside `context.with`, and the context manager the application registered carries it on.
import type { CompiledRoute } from '../app/route-table.js';
import type { MiddlewareFunction } from '../middleware.js';
import type { RequestCore } from '../request/kiln-request.js';
import type { RouteDecision } from '../router/route-decision.js';
import type { RouteInfo } from '../router/route-info.js';
import { kProtocolVersion, kRequestSpan, kWhenAnswered } from '../symbols.js';
import { kilnError } from '../kiln-error.js';
import {
  hostPort,
  requestDurationBuckets,
  requestDurationName,
  semanticMethod,
  spanKindServer,
  spanName,
  spanStatusError,
} from './http-semantic-conventions.js';
import { RequestSpan } from './request-span.js';
import type {
  OpenTelemetryApi,
  TelemetryAttributes,
  TelemetryHeaderGetter,
  TelemetryHistogram,
  TelemetryMeter,
  TelemetryOptions,
  TelemetryTracer,
} from './telemetry-options.js';

/** What a request's chain is run with. */
export type RunChain = (req: RequestCore, chain: readonly MiddlewareFunction[], decision: RouteDecision<CompiledRoute>) => unknown;

/** The propagator reads the incoming headers through the web `Headers` every request has. */
const headerGetter: TelemetryHeaderGetter = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};

const instrumentationScope = '@kiln/core';
const invalidTraceId = '00000000000000000000000000000000';

function isApi(api: unknown): api is OpenTelemetryApi {
  const given = api as Partial<Record<keyof OpenTelemetryApi, Record<string, unknown>>> | null;
  return (
    typeof given?.trace?.getTracer === 'function' &&
    typeof given.trace.setSpan === 'function' &&
    typeof given.context?.with === 'function' &&
    typeof given.context.active === 'function' &&
    typeof given.propagation?.extract === 'function' &&
    typeof given.propagation.fields === 'function' &&
    typeof given.metrics?.getMeter === 'function'
  );
}

/** What every request of one route (or of no route) starts its span with: computed once. */
interface RouteTelemetry {
  readonly name: string;
  readonly route: string | undefined;
  readonly controller: string | undefined;
  readonly handler: string | undefined;
  readonly functionName: string | undefined;
}

function describeRoute(method: string, route: RouteInfo | undefined): RouteTelemetry {
  if (route === undefined)
    return { name: spanName(method, undefined), route: undefined, controller: undefined, handler: undefined, functionName: undefined };
  const controller = route.controller.name;
  return {
    name: spanName(method, route.path),
    route: route.path,
    controller,
    handler: route.handler,
    functionName: `${controller}.${route.handler}`,
  };
}

/** The span's attributes at its start (what a sampler sees): the routed request's. */
function startAttributes(req: RequestCore, method: string, described: RouteTelemetry): TelemetryAttributes {
  const attributes: TelemetryAttributes = {
    'http.request.method': method,
    'url.path': req.path,
    'url.scheme': req.protocol,
  };
  if (method === '_OTHER') attributes['http.request.method_original'] = req.method;
  if (described.route !== undefined) {
    attributes['http.route'] = described.route;
    attributes['kiln.controller'] = described.controller;
    attributes['kiln.handler'] = described.handler;
    attributes['code.function.name'] = described.functionName;
  }
  return attributes;
}

/** Attributes only a recording span is given: reading them costs a no-op provider nothing. */
function requestDetails(req: RequestCore, span: RequestSpan): void {
  const headers = req.headers;
  const host = headers.get('host');
  const details: TelemetryAttributes = { 'server.address': req.hostname, 'server.port': hostPort(host, req.protocol) };
  const version = req[kProtocolVersion];
  if (version !== undefined) details['network.protocol.version'] = version;
  const userAgent = headers.get('user-agent');
  if (userAgent !== null) details['user_agent.original'] = userAgent;
  span.span.setAttributes(details);
}

/** The server's telemetry: `around` runs a routed request's chain inside its span. */
export class RequestTelemetry {
  readonly #api: OpenTelemetryApi;
  readonly #tracer: TelemetryTracer | undefined;
  /** The meter given, `undefined` for the global one, `false` for none. */
  readonly #meter: TelemetryMeter | false | undefined;
  /** Created on the first answer: the API hands out a no-op meter for good when no meter provider is registered yet. */
  #duration: TelemetryHistogram | false | undefined;
  /** Each route's span name and attributes, by method (a route answers GET and HEAD), and those of no route. */
  readonly #described = new WeakMap<RouteInfo, Map<string, RouteTelemetry>>();
  readonly #unrouted = new Map<string, RouteTelemetry>();

  constructor(options: TelemetryOptions) {
    if (options === null || typeof options !== 'object') throw kilnError('KILN054', 'options');
    if (!isApi(options.api)) throw kilnError('KILN054', 'api');
    const { api } = options;
    if (options.tracer !== undefined && options.tracer !== false && typeof options.tracer?.startSpan !== 'function')
      throw kilnError('KILN054', 'tracer');
    if (options.meter !== undefined && options.meter !== false && typeof options.meter?.createHistogram !== 'function')
      throw kilnError('KILN054', 'meter');
    this.#api = api;
    this.#tracer = options.tracer === false ? undefined : (options.tracer ?? api.trace.getTracer(instrumentationScope));
    this.#meter = options.meter;
  }

  /**
   * Runs `run(req, chain, decision)` inside the request's server span (extracted from the
   * incoming `traceparent`/`tracestate` by the registered propagator), and ends the span and
   * records the duration once the answer is sent.
   */
  // hot path when telemetry is on: one span, one context, one listener
  around(req: RequestCore, run: RunChain, chain: readonly MiddlewareFunction[], decision: RouteDecision<CompiledRoute>): unknown {
    const api = this.#api;
    const method = semanticMethod(req.method);
    const started = performance.now();
    const tracer = this.#tracer;
    if (tracer === undefined) {
      req[kWhenAnswered]((status) => this.#measure(req, method, status, started, undefined));
      return run(req, chain, decision);
    }
    const active = api.context.active();
    // Without a registered propagator (no fields to read), there is nothing to extract.
    const parent = api.propagation.fields().length === 0 ? active : api.propagation.extract(active, req.headers, headerGetter);
    const described = this.#describe(method, req.route);
    const span = tracer.startSpan(described.name, { kind: spanKindServer, attributes: startAttributes(req, method, described) }, parent);
    const requestSpan = new RequestSpan(span, started);
    req[kRequestSpan] = requestSpan;
    if (span.isRecording()) requestDetails(req, requestSpan);
    req[kWhenAnswered]((status) => {
      this.#end(requestSpan, status);
      this.#measure(req, method, status, started, requestSpan.errorType);
    });
    // A span without a trace (a no-op tracer, no caller's traceparent) has nothing to hand on to children.
    if (span.spanContext().traceId === invalidTraceId) return run(req, chain, decision);
    return api.context.with(api.trace.setSpan(parent, span), run, undefined, req, chain, decision);
  }

  #describe(method: string, route: RouteInfo | undefined): RouteTelemetry {
    let byMethod = route === undefined ? this.#unrouted : this.#described.get(route);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.#described.set(route!, byMethod);
    }
    let described = byMethod.get(method);
    if (described === undefined) {
      described = describeRoute(method, route);
      byMethod.set(method, described);
    }
    return described;
  }

  #end(requestSpan: RequestSpan, status: number): void {
    const span = requestSpan.span;
    if (span.isRecording()) {
      span.setAttribute('http.response.status_code', status);
      // An exception set the status already, with its message.
      if (status >= 500 && requestSpan.errorType === undefined) span.setStatus({ code: spanStatusError });
    }
    if (status >= 500) requestSpan.errorType ??= String(status);
    if (requestSpan.errorType !== undefined && span.isRecording()) span.setAttribute('error.type', requestSpan.errorType);
    span.end();
  }

  #histogram(): TelemetryHistogram | false {
    if (this.#meter === false) return false;
    const meter = this.#meter ?? this.#api.metrics.getMeter(instrumentationScope);
    return meter.createHistogram(requestDurationName, {
      description: 'Duration of HTTP server requests.',
      unit: 's',
      advice: { explicitBucketBoundaries: requestDurationBuckets },
    });
  }

  #measure(req: RequestCore, method: string, status: number, started: number, errorType: string | undefined): void {
    const duration = (this.#duration ??= this.#histogram());
    if (duration === false) return;
    const attributes: TelemetryAttributes = {
      'http.request.method': method,
      'url.scheme': req.protocol,
      'http.response.status_code': status,
    };
    if (req.route !== undefined) attributes['http.route'] = req.route.path;
    const type = errorType ?? (status >= 500 ? String(status) : undefined);
    if (type !== undefined) attributes['error.type'] = type;
    const version = req[kProtocolVersion];
    if (version !== undefined) attributes['network.protocol.version'] = version;
    duration.record((performance.now() - started) / 1000, attributes);
  }
}
