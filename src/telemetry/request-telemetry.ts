// One server span and one duration measure per routed request, through the OpenTelemetry API the
// application hands over: Kiln keeps no context of its own (no AsyncLocalStorage), it runs the
// chain inside `context.with`, and the context manager the application registered carries it on.
import type { CompiledRoute } from '../app/route-table.js';
import type { MiddlewareFunction } from '../middleware.js';
import type { RequestCore } from '../request/kiln-request.js';
import type { RouteDecision } from '../router/route-decision.js';
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

function isApi(api: unknown): api is OpenTelemetryApi {
  const given = api as Partial<Record<keyof OpenTelemetryApi, Record<string, unknown>>> | null;
  return (
    typeof given?.trace?.getTracer === 'function' &&
    typeof given.trace.setSpan === 'function' &&
    typeof given.context?.with === 'function' &&
    typeof given.context.active === 'function' &&
    typeof given.propagation?.extract === 'function' &&
    typeof given.metrics?.getMeter === 'function'
  );
}

/** The span a request runs in, with the routed request's attributes. */
function startAttributes(req: RequestCore, method: string): TelemetryAttributes {
  const route = req.route;
  const attributes: TelemetryAttributes = {
    'http.request.method': method,
    'url.path': req.path,
    'url.scheme': req.protocol,
  };
  if (method === '_OTHER') attributes['http.request.method_original'] = req.method;
  if (route !== undefined) {
    attributes['http.route'] = route.path;
    attributes['kiln.controller'] = route.controller.name;
    attributes['kiln.handler'] = route.handler;
    attributes['code.function.name'] = `${route.controller.name}.${route.handler}`;
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
  readonly #duration: TelemetryHistogram | undefined;

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
    const meter = options.meter === false ? undefined : (options.meter ?? api.metrics.getMeter(instrumentationScope));
    this.#duration = meter?.createHistogram(requestDurationName, {
      description: 'Duration of HTTP server requests.',
      unit: 's',
      advice: { explicitBucketBoundaries: requestDurationBuckets },
    });
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
    const parent = api.propagation.extract(api.context.active(), req.headers, headerGetter);
    const attributes = startAttributes(req, method);
    const span = tracer.startSpan(spanName(method, req.route?.path), { kind: spanKindServer, attributes }, parent);
    const requestSpan = new RequestSpan(span, started);
    req[kRequestSpan] = requestSpan;
    if (span.isRecording()) requestDetails(req, requestSpan);
    req[kWhenAnswered]((status) => {
      this.#end(requestSpan, status);
      this.#measure(req, method, status, started, requestSpan.errorType);
    });
    return api.context.with(api.trace.setSpan(parent, span), run, undefined, req, chain, decision);
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

  #measure(req: RequestCore, method: string, status: number, started: number, errorType: string | undefined): void {
    const duration = this.#duration;
    if (duration === undefined) return;
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
