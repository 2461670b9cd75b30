// req.signal and handlerTimeout over real HTTP on 127.0.0.1: the signal aborts when the client
// leaves (the handler's fetch to a slow upstream is cancelled), when the handler's deadline passes
// and when close()'s shutdown deadline passes, and through app.fetch with the incoming Request's
// signal; a handler past its deadline answers 503 exactly once. Bun and Deno: test/runtimes/.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Controller,
  cors,
  createServer as createServerFor,
  Get,
  HandlerTimeout,
  Query,
  Req,
  requestLogger,
  type KilnRequest,
  type LogDestination,
} from '@kiln/core';
import { rateLimit } from '@kiln/rate-limit';
import { raw } from '../support/raw.js';
import { request, requestInProcess, start } from '../support/server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the handlers saw, for the test to read after the answer. */
const seen: { reason?: { name: string; message: string }; upstream?: string; lateRan?: boolean } = {};

function describeReason(reason: unknown): { name: string; message: string } {
  return { name: (reason as Error).name, message: (reason as Error).message };
}

/** Resolves with the signal's reason once it aborts. */
function aborted(signal: AbortSignal): Promise<unknown> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(signal.reason);
    else signal.addEventListener('abort', () => resolve(signal.reason), { once: true });
  });
}

@Controller('/work')
class WorkController {
  /** Calls a slow upstream with req.signal: the client leaving must cancel that call. */
  @Get('/upstream')
  async upstream(@Query('url') url: string, @Req() req: KilnRequest) {
    try {
      await fetch(url, { signal: req.signal });
      seen.upstream = 'answered';
    } catch (error) {
      seen.upstream = (error as Error).name;
    }
    return { done: true };
  }

  /** Waits for its signal and records why it aborted. */
  @Get('/wait')
  async wait(@Req() req: KilnRequest) {
    seen.reason = describeReason(await aborted(req.signal));
    return { late: true };
  }

  /** Never reads its signal until it is late: the signal is born aborted. */
  @Get('/late')
  async late(@Req() req: KilnRequest) {
    await sleep(250);
    seen.lateRan = true;
    seen.reason = req.signal.aborted ? describeReason(req.signal.reason) : { name: 'not aborted', message: '' };
    return { late: true };
  }

  @Get('/quick')
  async quick() {
    await sleep(5);
    return { quick: true };
  }

  @Get('/fails-late')
  async failsLate() {
    await sleep(200);
    throw new Error('late failure');
  }
}

@Controller('/reports')
@HandlerTimeout(80)
class ReportsController {
  @Get('/slow')
  async slow() {
    await sleep(250);
    return { slow: true };
  }

  @Get('/unlimited')
  @HandlerTimeout(0)
  async unlimited() {
    await sleep(250);
    return { unlimited: true };
  }

  @Get('/generous')
  @HandlerTimeout(5_000)
  async generous() {
    await sleep(150);
    return { generous: true };
  }
}

/** A local upstream that never answers and tells when its client went away. */
async function slowUpstream(): Promise<{ url: string; gone: Promise<void>; received: Promise<void>; server: Server }> {
  let markReceived!: () => void;
  let markGone!: () => void;
  const received = new Promise<void>((resolve) => (markReceived = resolve));
  const gone = new Promise<void>((resolve) => (markGone = resolve));
  const server = createHttpServer((incoming) => {
    markReceived();
    incoming.socket.once('close', markGone);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`, gone, received, server };
}

function memoryDestination(): LogDestination & { lines: Record<string, any>[] } {
  const lines: Record<string, any>[] = [];
  return { lines, write: (line: string) => void lines.push(JSON.parse(line)) };
}

const timeoutBody = (ms: number) => ({ error: 'Service Unavailable', message: `The handler did not answer within ${ms} ms` });

const Cancellation = suite('req.signal and handlerTimeout');

Cancellation.before.each(() => {
  for (const key of Object.keys(seen)) delete seen[key as keyof typeof seen];
});

Cancellation('the client leaving aborts req.signal, and the handler’s fetch to a slow upstream is cancelled', async () => {
  const upstream = await slowUpstream();
  const server = await start({ controllers: [WorkController], logger: { level: 'silent' } });
  try {
    const client = new AbortController();
    const call = fetch(`${server.base}/work/upstream?url=${encodeURIComponent(upstream.url)}`, { signal: client.signal }).catch(
      (error: Error) => error.name,
    );
    await upstream.received;
    client.abort();
    assert.is(await call, 'AbortError');
    await upstream.gone; // the upstream's connection closed: the handler's fetch was cancelled
    for (let i = 0; i < 100 && seen.upstream === undefined; i++) await sleep(10);
    assert.is(seen.upstream, 'AbortError');
  } finally {
    upstream.server.close();
    upstream.server.closeAllConnections();
    await server.close();
  }
});

Cancellation('the client leaving aborts req.signal with an AbortError that says so', async () => {
  const server = await start({ controllers: [WorkController], logger: { level: 'silent' } });
  try {
    const client = new AbortController();
    const call = fetch(`${server.base}/work/wait`, { signal: client.signal }).catch(() => 'aborted');
    await sleep(50);
    client.abort();
    await call;
    for (let i = 0; i < 100 && seen.reason === undefined; i++) await sleep(10);
    assert.equal(seen.reason, { name: 'AbortError', message: 'The client closed the connection before the answer was sent' });
  } finally {
    await server.close();
  }
});

Cancellation('handlerTimeout answers 503 with the JSON error body, aborts req.signal and logs the route', async () => {
  const destination = memoryDestination();
  const server = await start({ controllers: [WorkController], handlerTimeout: 100, logger: { destination, pino: false } });
  try {
    const reply = await request(server.base, '/work/wait');
    assert.is(reply.status, 503);
    assert.is(reply.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(reply.json(), timeoutBody(100));
    for (let i = 0; i < 100 && seen.reason === undefined; i++) await sleep(10);
    assert.equal(seen.reason, { name: 'TimeoutError', message: 'The handler did not answer within 100 ms' });
    const line = destination.lines.find((entry) => entry.msg === 'handler timed out');
    assert.ok(line !== undefined, 'a warn line');
    assert.is(line!.level, 40);
    assert.is(line!.route, 'GET /work/wait');
    assert.is(line!.handler, 'WorkController.wait');
    assert.is(line!.handlerTimeout, 100);
    assert.is(typeof line!.reqId, 'string');
    // a handler within its time is untouched
    const quick = await request(server.base, '/work/quick');
    assert.is(quick.status, 200);
    assert.equal(quick.json(), { quick: true });
  } finally {
    await server.close();
  }
});

Cancellation('a late result is discarded: one 503 on the connection, which then serves the next request', async () => {
  const reports: unknown[] = [];
  const server = await start({
    controllers: [WorkController],
    handlerTimeout: 100,
    onError: (error) => reports.push(error),
    logger: { level: 'silent' },
  });
  try {
    const port = new URL(server.base).port;
    const first = await raw(Number(port), 'GET /work/late HTTP/1.1\r\nHost: x\r\n\r\n', { wait: 500 });
    assert.equal(first.statuses, [503], first.text);
    assert.is(first.closed, false);
    assert.ok(seen.lateRan, 'the handler finished after its deadline');
    // a signal first read after the deadline is born aborted
    assert.is(seen.reason?.name, 'TimeoutError');
    const failing = await raw(Number(port), 'GET /work/fails-late HTTP/1.1\r\nHost: x\r\n\r\n', { wait: 400 });
    assert.equal(failing.statuses, [503], failing.text);
    assert.equal(reports, [], 'a late failure is not reported: the client already has its answer');
  } finally {
    await server.close();
  }
});

Cancellation('@HandlerTimeout on a controller, and on a route overriding it (0: no limit)', async () => {
  const server = await start({ controllers: [ReportsController], handlerTimeout: 50, logger: { level: 'silent' } });
  try {
    const slow = await request(server.base, '/reports/slow');
    assert.is(slow.status, 503);
    assert.equal(slow.json(), timeoutBody(80));
    const unlimited = await request(server.base, '/reports/unlimited');
    assert.is(unlimited.status, 200);
    assert.equal(unlimited.json(), { unlimited: true });
    const generous = await request(server.base, '/reports/generous');
    assert.is(generous.status, 200);
  } finally {
    await server.close();
  }
});

Cancellation('the 503 passes through the middlewares: CORS headers, the limiter’s headers, the access log line', async () => {
  const destination = memoryDestination();
  const server = await start({
    controllers: [WorkController],
    handlerTimeout: 60,
    middlewares: [cors({ origin: 'https://app.example' }), requestLogger(), rateLimit({ max: 5, windowMs: 60_000 })],
    logger: { destination, pino: false },
  });
  try {
    const reply = await request(server.base, '/work/wait', { headers: { origin: 'https://app.example' } });
    assert.is(reply.status, 503);
    assert.equal(reply.json(), timeoutBody(60));
    assert.is(reply.headers.get('access-control-allow-origin'), 'https://app.example');
    assert.is(reply.headers.get('ratelimit-remaining'), '4');
    const access = destination.lines.find((entry) => entry.msg === 'request errored');
    assert.is(access?.res?.statusCode, 503);
  } finally {
    await server.close();
  }
});

Cancellation('the shutdown deadline aborts req.signal of a request still running', async () => {
  const server = await start({ controllers: [WorkController], shutdownTimeout: 150, logger: { level: 'silent' } });
  const stuck = fetch(`${server.base}/work/wait`).then(
    (reply) => reply.status,
    () => 'cut',
  );
  await sleep(50);
  await server.close();
  await stuck;
  for (let i = 0; i < 100 && seen.reason === undefined; i++) await sleep(10);
  assert.equal(seen.reason, { name: 'AbortError', message: 'The server is shutting down: its 150 ms shutdown deadline passed' });
});

Cancellation('app.fetch: req.signal is the incoming Request’s, and handlerTimeout answers the same 503', async () => {
  const upstream = await slowUpstream();
  const app = createServerFor({ controllers: [WorkController], handlerTimeout: 2_000, logger: { level: 'silent' } });
  try {
    const caller = new AbortController();
    const answer = app.fetch(
      new Request(`http://localhost/work/upstream?url=${encodeURIComponent(upstream.url)}`, { signal: caller.signal }),
    );
    await upstream.received;
    caller.abort(new DOMException('caller gave up', 'AbortError'));
    const reply = await answer;
    assert.is(reply.status, 200);
    await upstream.gone;
    assert.is(seen.upstream, 'AbortError');
    const timed = createServerFor({ controllers: [WorkController], handlerTimeout: 100, logger: { level: 'silent' } });
    const late = await requestInProcess(timed, '/work/wait');
    assert.is(late.status, 503);
    assert.equal(late.json(), timeoutBody(100));
    assert.is(seen.reason?.name, 'TimeoutError');
  } finally {
    upstream.server.close();
    upstream.server.closeAllConnections();
  }
});

Cancellation('handlerTimeout must be a whole number of milliseconds', () => {
  for (const bad of [-1, 1.5, '100', Number.NaN]) {
    assert.throws(
      () => createServerFor({ controllers: [WorkController], handlerTimeout: bad as number }),
      (error: Error & { code?: string }) =>
        error.code === 'KILN007' &&
        error.message === `handlerTimeout must be a whole number of milliseconds (0 for none), got ${String(bad)}`,
    );
  }
  assert.throws(() => HandlerTimeout(-5), /@HandlerTimeout\(ms\) must be a whole number of milliseconds/);
});

Cancellation.run();
