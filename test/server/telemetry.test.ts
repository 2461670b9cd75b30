// OpenTelemetry over real HTTP on 127.0.0.1, with the SDK's in-memory exporters: one server span per
// routed request (name, semantic-convention attributes, parent from an incoming traceparent, ERROR
// on a 5xx with the exception recorded), a fetch made by a handler nested under it (undici's
// instrumentation), the http.server.request.duration histogram, log lines carrying the trace ids,
// one export over OTLP/HTTP to a receiver the test starts, and nothing at all without `telemetry`.
// Bun and Deno: test/runtimes/ (telemetry-runtimes.test.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as api from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import {
  AggregationTemporality,
  DataPointType,
  type HistogramMetricData,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import {
  Controller,
  cors,
  createServer,
  Get,
  HttpError,
  Param,
  Req,
  requestLogger,
  type KilnRequest,
  type LogDestination,
  type TelemetryOptions,
} from '@kiln/core';
import { rateLimit } from '@kiln/rate-limit';
import { request, requestInProcess, start, type Started } from '../support/server.js';

// The SDK as an application sets it up: a provider, the AsyncLocalStorage context manager, the W3C propagator.
const spans = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
api.trace.setGlobalTracerProvider(tracerProvider);
api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const metricReader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
api.metrics.setGlobalMeterProvider(new MeterProvider({ readers: [metricReader] }));
// fetch() as instrumented: a client span only under an active span (the test's own requests have none).
const undici = new UndiciInstrumentation({ requireParentforSpans: true });
undici.setTracerProvider(tracerProvider);
undici.enable();

// The types of Kiln's option accept the real API, tracer and meter.
const typed: TelemetryOptions = { api, tracer: api.trace.getTracer('typed'), meter: api.metrics.getMeter('typed') };
void typed;

/** The upstream a handler calls; it records the trace headers it was sent. */
let upstreamHeaders: IncomingHttpHeaders = {};
let upstream: Server;
let upstreamUrl = '';

@Controller('/books')
class BooksController {
  @Get('/:id')
  show(@Param('id') id: string, @Req() req: KilnRequest) {
    req.log.info('reading a book');
    return { id };
  }
}

@Controller('/calls')
class CallsController {
  @Get('/upstream')
  async upstream(@Req() req: KilnRequest) {
    const answer = await fetch(upstreamUrl, { signal: req.signal });
    return { upstream: await answer.text() };
  }

  @Get('/broken')
  broken(): { ok: boolean } {
    throw new TypeError('the shelf collapsed');
  }

  @Get('/unavailable')
  unavailable(): { ok: boolean } {
    throw new HttpError(503, 'The catalogue is being rebuilt');
  }
}

/** Log lines, as objects. */
function memoryDestination(): LogDestination & { lines: Record<string, any>[] } {
  const lines: Record<string, any>[] = [];
  return { lines, write: (line: string) => void lines.push(JSON.parse(line)) };
}

/** The finished span named `name` whose `url.path` is `path`: a span ends once the answer is sent, a moment after the client has it. */
async function finishedSpan(name: string, path: string): Promise<ReadableSpan> {
  for (let waited = 0; waited < 2_000; waited += 5) {
    const found = spans.getFinishedSpans().find((span) => span.name === name && span.attributes['url.path'] === path);
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`no finished span ${name} for ${path}; finished: ${spans.getFinishedSpans().map((span) => span.name)}`);
}

const logs = memoryDestination();
let server: Started;

const Telemetry = suite('telemetry: server spans and the duration histogram');

Telemetry.before(async () => {
  upstream = createHttpServer((incoming, response) => {
    upstreamHeaders = incoming.headers;
    response.end('shelved');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/stock`;
  // With the defaults of the others on: the request logger first, CORS, a limiter.
  server = await start({
    controllers: [BooksController, CallsController],
    middlewares: [requestLogger(), cors(), rateLimit({ max: 1_000, windowMs: 60_000 })],
    logger: { destination: logs, pino: false },
    onError: () => {},
    telemetry: { api },
  });
});

Telemetry.after(async () => {
  await server.close();
  await new Promise((resolve) => upstream.close(resolve));
});

Telemetry.before.each(() => spans.reset());

Telemetry('a routed request has one SERVER span named METHOD /route/:template, with the stable HTTP attributes', async () => {
  const reply = await request(server.base, '/books/7', { headers: { 'user-agent': 'kiln-test/1.0' } });
  assert.is(reply.status, 200);
  const span = await finishedSpan('GET /books/:id', '/books/7');
  assert.is(span.kind, api.SpanKind.SERVER);
  assert.is(span.status.code, api.SpanStatusCode.UNSET);
  assert.is(span.parentSpanContext, undefined);
  assert.is(span.instrumentationScope.name, '@kiln/core');
  const port = Number(new URL(server.base).port);
  assert.equal(span.attributes, {
    'http.request.method': 'GET',
    'url.path': '/books/7',
    'url.scheme': 'http',
    'http.route': '/books/:id',
    'kiln.controller': 'BooksController',
    'kiln.handler': 'show',
    'code.function.name': 'BooksController.show',
    'server.address': '127.0.0.1',
    'server.port': port,
    'network.protocol.version': '1.1',
    'user_agent.original': 'kiln-test/1.0',
    'http.response.status_code': 200,
  });
});

Telemetry('the span continues the trace of an incoming traceparent, with its tracestate', async () => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const parentId = '00f067aa0ba902b7';
  const reply = await request(server.base, '/books/8', {
    headers: { traceparent: `00-${traceId}-${parentId}-01`, tracestate: 'shelf=east,kiln=1' },
  });
  assert.is(reply.status, 200);
  const span = await finishedSpan('GET /books/:id', '/books/8');
  assert.is(span.spanContext().traceId, traceId);
  assert.is.not(span.spanContext().spanId, parentId);
  assert.is(span.parentSpanContext?.spanId, parentId);
  assert.is(span.parentSpanContext?.isRemote, true);
  assert.is(span.spanContext().traceState?.serialize(), 'shelf=east,kiln=1');
});

Telemetry("a handler's instrumented fetch is a CLIENT span nested under the server span, and carries its traceparent", async () => {
  const reply = await request(server.base, '/calls/upstream');
  assert.is(reply.status, 200);
  assert.equal(reply.json(), { upstream: 'shelved' });
  const serverSpan = await finishedSpan('GET /calls/upstream', '/calls/upstream');
  const client = spans.getFinishedSpans().find((span) => span.kind === api.SpanKind.CLIENT);
  assert.ok(client, 'the fetch made a client span');
  assert.is(client.spanContext().traceId, serverSpan.spanContext().traceId);
  assert.is(client.parentSpanContext?.spanId, serverSpan.spanContext().spanId);
  assert.is(client.attributes['http.response.status_code'], 200);
  // The upstream was told the trace: the client span is its parent.
  assert.is(upstreamHeaders.traceparent, `00-${client.spanContext().traceId}-${client.spanContext().spanId}-01`);
});

Telemetry('an exception answered 500: status ERROR, error.type its class, the exception recorded', async () => {
  const reply = await request(server.base, '/calls/broken');
  assert.is(reply.status, 500);
  const span = await finishedSpan('GET /calls/broken', '/calls/broken');
  assert.is(span.status.code, api.SpanStatusCode.ERROR);
  assert.is(span.status.message, 'the shelf collapsed');
  assert.is(span.attributes['http.response.status_code'], 500);
  assert.is(span.attributes['error.type'], 'TypeError');
  const exception = span.events.find((event) => event.name === 'exception');
  assert.ok(exception, 'the exception is an event of the span');
  assert.is(exception.attributes?.['exception.type'], 'TypeError');
  assert.is(exception.attributes?.['exception.message'], 'the shelf collapsed');
});

Telemetry('an HttpError 503: status ERROR and error.type "503", no exception event; a 404 is just METHOD and UNSET', async () => {
  assert.is((await request(server.base, '/calls/unavailable')).status, 503);
  const unavailable = await finishedSpan('GET /calls/unavailable', '/calls/unavailable');
  assert.is(unavailable.status.code, api.SpanStatusCode.ERROR);
  assert.is(unavailable.attributes['error.type'], '503');
  assert.is(unavailable.events.length, 0);

  assert.is((await request(server.base, '/nowhere')).status, 404);
  const missing = await finishedSpan('GET', '/nowhere');
  assert.is(missing.status.code, api.SpanStatusCode.UNSET);
  assert.is(missing.attributes['http.route'], undefined);
  assert.is(missing.attributes['http.response.status_code'], 404);
  assert.is(missing.attributes['error.type'], undefined);
});

Telemetry('an unknown method is _OTHER, its span named HTTP', async () => {
  const reply = await request(server.base, '/books/9', { method: 'PURGE' });
  assert.is(reply.status, 405);
  const span = await finishedSpan('HTTP', '/books/9');
  assert.is(span.attributes['http.request.method'], '_OTHER');
  assert.is(span.attributes['http.request.method_original'], 'PURGE');
});

Telemetry('app.fetch gets the same span, without a protocol version it cannot know', async () => {
  const reply = await requestInProcess(server.app, '/books/10');
  assert.is(reply.status, 200);
  const span = await finishedSpan('GET /books/:id', '/books/10');
  assert.is(span.attributes['http.response.status_code'], 200);
  assert.is(span.attributes['network.protocol.version'], undefined);
  assert.is(span.attributes['server.address'], 'localhost');
  assert.is(span.attributes['server.port'], 80);
});

Telemetry('http.server.request.duration: a histogram in seconds with the semantic-convention buckets and attributes', async () => {
  assert.is((await request(server.base, '/books/11')).status, 200);
  await finishedSpan('GET /books/:id', '/books/11');
  await metricReader.forceFlush();
  const exported = metricExporter.getMetrics().at(-1);
  const metric = exported?.scopeMetrics.find((scope) => scope.scope.name === '@kiln/core')?.metrics[0] as HistogramMetricData | undefined;
  assert.ok(metric, 'the histogram was exported');
  assert.is(metric.descriptor.name, 'http.server.request.duration');
  assert.is(metric.descriptor.unit, 's');
  assert.is(metric.dataPointType, DataPointType.HISTOGRAM);
  const point = metric.dataPoints.find(
    (candidate) => candidate.attributes['http.route'] === '/books/:id' && candidate.attributes['http.response.status_code'] === 200,
  );
  assert.ok(point, 'a point for GET /books/:id 200');
  assert.equal(point.attributes, {
    'http.request.method': 'GET',
    'url.scheme': 'http',
    'http.response.status_code': 200,
    'http.route': '/books/:id',
    'network.protocol.version': '1.1',
  });
  assert.ok(point.value.count >= 1);
  assert.ok(point.value.sum! > 0 && point.value.sum! < 10, `a duration in seconds, got ${point.value.sum}`);
  assert.equal(point.value.buckets.boundaries, [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]);
  const failed = metric.dataPoints.find((candidate) => candidate.attributes['http.response.status_code'] === 500);
  assert.ok(failed, 'a point for the 500');
  assert.is(failed.attributes['error.type'], 'TypeError');
});

Telemetry("log lines written during a request carry the span's trace_id and span_id", async () => {
  logs.lines.length = 0;
  assert.is((await request(server.base, '/books/12')).status, 200);
  const span = await finishedSpan('GET /books/:id', '/books/12');
  const { traceId, spanId } = span.spanContext();
  const handlerLine = logs.lines.find((line) => line.msg === 'reading a book');
  assert.ok(handlerLine, "the handler's req.log line");
  assert.is(handlerLine.trace_id, traceId);
  assert.is(handlerLine.span_id, spanId);
  for (let waited = 0; waited < 2_000 && !logs.lines.some((line) => line.msg === 'request completed'); waited += 5)
    await new Promise((resolve) => setTimeout(resolve, 5));
  const accessLine = logs.lines.find((line) => line.msg === 'request completed');
  assert.ok(accessLine, "requestLogger's line");
  assert.is(accessLine.trace_id, traceId);
  assert.is(accessLine.span_id, spanId);
  assert.is(accessLine.req.url, '/books/12');
});

Telemetry('without telemetry: no span, and log lines without trace ids', async () => {
  const quietLogs = memoryDestination();
  const quiet = await start({
    controllers: [BooksController],
    middlewares: [requestLogger()],
    logger: { destination: quietLogs, pino: false },
  });
  try {
    assert.is((await request(quiet.base, '/books/13')).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.is(spans.getFinishedSpans().length, 0);
    const line = quietLogs.lines.find((entry) => entry.msg === 'reading a book');
    assert.ok(line);
    assert.is(line.trace_id, undefined);
  } finally {
    await quiet.close();
  }
});

Telemetry('tracer: false keeps the histogram and makes no span; a bad option is KILN054 at start-up', async () => {
  const metricsOnly = await start({ controllers: [BooksController], logger: { level: 'silent' }, telemetry: { api, tracer: false } });
  try {
    assert.is((await request(metricsOnly.base, '/books/14')).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.is(spans.getFinishedSpans().length, 0);
  } finally {
    await metricsOnly.close();
  }
  const refused = (telemetry: unknown): string => {
    try {
      createServer({ controllers: [BooksController], telemetry: telemetry as TelemetryOptions });
    } catch (error) {
      return `${(error as { code?: string }).code}: ${(error as Error).message}`;
    }
    return 'accepted';
  };
  assert.is(
    refused({ api: {} }),
    "KILN054: telemetry.api must be the @opentelemetry/api module (import * as api from '@opentelemetry/api'), with trace, context, propagation and metrics (docs: guide/telemetry.md)",
  );
  assert.is(refused(null), "KILN054: telemetry: must be an object: { api, tracer?, meter? } (import * as api from '@opentelemetry/api')");
  assert.is(refused({ api, tracer: {} }), 'KILN054: telemetry.tracer must be an OpenTelemetry Tracer (api.trace.getTracer(name)) or false');
  assert.is(refused({ api, meter: 1 }), 'KILN054: telemetry.meter must be an OpenTelemetry Meter (api.metrics.getMeter(name)) or false');
});

Telemetry('one export over OTLP/HTTP to a local receiver: the server span arrives', async () => {
  const received: { path: string; contentType: string; body: string }[] = [];
  const receiver = createHttpServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      received.push({
        path: incoming.url ?? '',
        contentType: incoming.headers['content-type'] ?? '',
        body: Buffer.concat(chunks).toString(),
      });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const exporter = new OTLPTraceExporter({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/v1/traces` });
  const otlpProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] });
  const exported = await start({
    controllers: [BooksController],
    logger: { level: 'silent' },
    telemetry: { api, tracer: otlpProvider.getTracer('kiln-otlp') },
  });
  try {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const reply = await request(exported.base, '/books/15', { headers: { traceparent: `00-${traceId}-b7ad6b7169203331-01` } });
    assert.is(reply.status, 200);
    // The span ends once the answer is sent: wait for that, then flush the batch.
    for (let waited = 0; waited < 2_000 && received.length === 0; waited += 10) {
      await otlpProvider.forceFlush();
      if (received.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.is(received.length, 1);
    assert.is(received[0]!.path, '/v1/traces');
    assert.is(received[0]!.contentType, 'application/json');
    const body = JSON.parse(received[0]!.body);
    const span = body.resourceSpans[0].scopeSpans[0].spans[0];
    assert.is(body.resourceSpans[0].scopeSpans[0].scope.name, 'kiln-otlp');
    assert.is(span.name, 'GET /books/:id');
    assert.is(span.traceId, traceId);
    assert.is(span.parentSpanId, 'b7ad6b7169203331');
    assert.is(span.kind, 2); // OTLP's SPAN_KIND_SERVER
    const route = span.attributes.find((attribute: { key: string }) => attribute.key === 'http.route');
    assert.equal(route.value, { stringValue: '/books/:id' });
  } finally {
    await exported.close();
    await otlpProvider.shutdown();
    await new Promise((resolve) => receiver.close(resolve));
  }
});

Telemetry.run();
