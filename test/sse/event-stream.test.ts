// @Sse() routes over a real socket on 127.0.0.1 (and through app.fetch): the text/event-stream
// framing byte for byte, events projected to their declared type, Last-Event-ID as a typed
// header, heartbeats, Accept and HEAD, the generator closed when the client leaves or stops
// reading (sendTimeout), compression flushed per event, and the start-up and per-request errors.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import net from 'node:net';
import {
  Body,
  compression,
  Controller,
  Get,
  Header,
  HttpError,
  KilnError,
  Post,
  Req,
  Sse,
  sseEvent,
  type KilnRequest,
  type SseEvent,
} from '@kiln/core';
import { TopicHub } from '@kiln/core/realtime';
import { start, type Started } from '../support/server.js';

interface Tick {
  n: number;
  label: string;
}

interface Prompt {
  question: string;
}

/** A promise with its resolve, for a generator that waits on the test. */
function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

/** Fails instead of hanging when `promise` never settles (a generous bound, not a timing assertion). */
function within<T>(promise: Promise<T>, what: string, milliseconds = 10_000): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_resolve, reject) =>
      setTimeout(() => reject(new Error(`${what}: not within ${milliseconds} ms`)), milliseconds).unref(),
    ),
  ]);
}

const hub = new TopicHub<Tick>();
const reported: unknown[] = [];
let started = 0;
let closedWith: { aborted: boolean; reason: unknown } | undefined;
let closed = gate<{ aborted: boolean; reason: unknown }>();
let produced = 0;
let release = gate();

@Controller('/events')
class EventsController {
  @Get('/framing')
  @Sse({ heartbeat: 0 })
  async *framing(): AsyncGenerator<Tick | SseEvent<Tick> | SseEvent<undefined>> {
    yield { n: 1, label: 'plain', secret: 'never sent' } as Tick;
    yield sseEvent({ n: 2, label: 'héllo ✓ 🚀 "quoted"\nnewline', hidden: true } as Tick, { event: 'price', id: '42', retry: 2500 });
    yield sseEvent(undefined, { id: '' });
    yield undefined as unknown as Tick;
  }

  @Get('/text')
  @Sse({ heartbeat: 0, retry: 1000 })
  async *text(): AsyncGenerator<string> {
    yield 'one line';
    yield 'line 1\nline 2\r\nline 3\rline 4';
    yield ' leading space, ünïcödé ✓ 🚀';
    yield '';
  }

  @Get('/resume')
  @Sse({ heartbeat: 0 })
  async *resume(@Header('last-event-id') last?: number): AsyncGenerator<SseEvent<Tick>> {
    const from = last === undefined ? 1 : last + 1;
    for (let n = from; n < from + 2; n++) yield sseEvent({ n, label: `tick ${n}` }, { id: String(n) });
  }

  @Get('/counted')
  @Sse({ heartbeat: 0 })
  async *counted(): AsyncGenerator<Tick> {
    started++;
    yield { n: 1, label: 'counted' };
  }

  @Get('/heartbeat')
  @Sse({ heartbeat: 20 })
  async *heartbeat(): AsyncGenerator<Tick> {
    await release.promise;
    yield { n: 1, label: 'after the heartbeats' };
  }

  @Get('/endless')
  @Sse({ heartbeat: 60_000 })
  async *endless(@Req() req: KilnRequest): AsyncGenerator<Tick> {
    try {
      for (let n = 1; ; n++) {
        yield { n, label: 'endless' };
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    } finally {
      closed.open({ aborted: req.signal.aborted, reason: req.signal.reason });
    }
  }

  @Get('/subscribed')
  @Sse({ heartbeat: 60_000 })
  async *subscribed(@Req() req: KilnRequest): AsyncGenerator<Tick> {
    try {
      for await (const tick of hub.subscribe('ticks', { signal: req.signal })) yield tick;
    } finally {
      closed.open({ aborted: req.signal.aborted, reason: req.signal.reason });
    }
  }

  @Get('/flood')
  @Sse({ heartbeat: 0 })
  async *flood(@Req() req: KilnRequest): AsyncGenerator<string> {
    const block = 'x'.repeat(64 * 1024);
    try {
      for (;;) {
        produced++;
        yield block;
      }
    } finally {
      closedWith = { aborted: req.signal.aborted, reason: req.signal.reason };
      closed.open(closedWith);
    }
  }

  @Get('/compressed')
  @Sse({ heartbeat: 0 })
  async *compressed(): AsyncGenerator<Tick> {
    yield { n: 1, label: 'first '.repeat(200) };
    await release.promise;
    yield { n: 2, label: 'second' };
  }

  @Post('/chat')
  @Sse({ heartbeat: 0 })
  async *chat(@Body() prompt: Prompt): AsyncGenerator<string> {
    for (const word of prompt.question.split(' ')) yield word;
  }

  @Get('/fails')
  @Sse({ heartbeat: 0 })
  async *fails(): AsyncGenerator<Tick> {
    yield { n: 1, label: 'before the failure' };
    throw new Error('the source failed');
  }

  @Get('/refuses/:id')
  @Sse({ heartbeat: 0 })
  async refuses(@Header('x-id') id?: string): Promise<AsyncGenerator<Tick>> {
    if (id !== 'known') throw new HttpError(404, 'No such stream');
    return (async function* () {
      yield { n: 1, label: 'found' };
    })();
  }

  @Get('/not-iterable')
  @Sse()
  notIterable(): AsyncGenerator<Tick> {
    return { n: 1 } as unknown as AsyncGenerator<Tick>;
  }
}

let server: Started;
test.before(async () => {
  server = await start({
    controllers: [EventsController],
    middlewares: [compression({ threshold: 0 })],
    sendTimeout: 500,
    onError: (error) => {
      reported.push(error);
    },
  });
});
test.after(() => server.close());

test.before.each(() => {
  closed = gate();
  release = gate();
  reported.length = 0;
});

test('events are framed byte for byte: fields, JSON data projected to the type, nothing for undefined', async () => {
  const response = await fetch(`${server.base}/events/framing`);
  assert.is(response.status, 200);
  assert.is(response.headers.get('content-type'), 'text/event-stream');
  assert.is(response.headers.get('cache-control'), 'no-cache');
  assert.is(response.headers.get('x-accel-buffering'), 'no');
  assert.is(response.headers.get('content-length'), null);
  const text = Buffer.from(await response.arrayBuffer()).toString('utf8');
  assert.is(
    text,
    ':\n\n' +
      'data: {"n":1,"label":"plain"}\n\n' +
      'event: price\nid: 42\nretry: 2500\ndata: {"n":2,"label":"héllo ✓ 🚀 \\"quoted\\"\\nnewline"}\n\n' +
      'id: \n\n',
  );
});

test('a string is sent as its text: one data line per line (CRLF, CR and LF), unicode as UTF-8; retry opens the stream', async () => {
  const response = await fetch(`${server.base}/events/text`);
  const bytes = Buffer.from(await response.arrayBuffer());
  assert.equal(
    bytes,
    Buffer.from(
      ':\nretry: 1000\n\n' +
        'data: one line\n\n' +
        'data: line 1\ndata: line 2\ndata: line 3\ndata: line 4\n\n' +
        'data:  leading space, ünïcödé ✓ 🚀\n\n' +
        'data: \n\n',
      'utf8',
    ),
  );
});

test('Last-Event-ID is read as a typed header: the stream resumes after it', async () => {
  const first = await (await fetch(`${server.base}/events/resume`)).text();
  assert.is(first, ':\n\nid: 1\ndata: {"n":1,"label":"tick 1"}\n\nid: 2\ndata: {"n":2,"label":"tick 2"}\n\n');
  const resumed = await (await fetch(`${server.base}/events/resume`, { headers: { 'last-event-id': '2' } })).text();
  assert.is(resumed, ':\n\nid: 3\ndata: {"n":3,"label":"tick 3"}\n\nid: 4\ndata: {"n":4,"label":"tick 4"}\n\n');
});

test('Accept: a client that accepts no event stream gets 406 and the handler never runs; */*, text/* and none are served', async () => {
  const before = started;
  for (const accept of ['application/json', 'text/html, application/xml;q=0.9', 'text/event-stream;q=0, */*']) {
    const refused = await fetch(`${server.base}/events/counted`, { headers: { accept } });
    assert.is(refused.status, 406, accept);
    assert.is(refused.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(await refused.json(), { error: 'Not Acceptable', message: 'GET /events/counted answers text/event-stream only' });
  }
  assert.is(started, before);
  for (const accept of ['text/event-stream', '*/*', 'text/*', 'application/json, text/event-stream;q=0.5', undefined]) {
    const served = await fetch(`${server.base}/events/counted`, accept === undefined ? {} : { headers: { accept } });
    assert.is(served.status, 200, String(accept));
    assert.is(await served.text(), ':\n\ndata: {"n":1,"label":"counted"}\n\n');
  }
  assert.is(started, before + 5);
});

test('HEAD answers the head of the stream without a body, and the generator never starts', async () => {
  const before = started;
  const response = await fetch(`${server.base}/events/counted`, { method: 'HEAD' });
  assert.is(response.status, 200);
  assert.is(response.headers.get('content-type'), 'text/event-stream');
  assert.is(await response.text(), '');
  assert.is(started, before);
});

test('a quiet stream sends a comment line every heartbeat, and the event when it comes', async () => {
  const response = await fetch(`${server.base}/events/heartbeat`);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  // The opening comment and two heartbeats, then the generator is let go.
  while (text.split(':\n\n').length - 1 < 3) text += (await within(reader.read(), 'heartbeats')).value;
  assert.is(text, ':\n\n:\n\n:\n\n');
  release.open();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += value;
  }
  assert.ok(text.endsWith('data: {"n":1,"label":"after the heartbeats"}\n\n'), text);
  assert.ok(/^(:\n\n)+data: /.test(text), text);
});

test('a client that goes away closes the generator (return() at its yield) and aborts req.signal, with no heartbeat needed', async () => {
  const controller = new AbortController();
  const response = await fetch(`${server.base}/events/endless`, { signal: controller.signal });
  const reader = response.body!.getReader();
  await reader.read();
  await reader.read();
  controller.abort();
  const end = await within(closed.promise, 'the generator closed');
  assert.ok(end.aborted, 'req.signal was aborted');
  assert.is((end.reason as DOMException).name, 'AbortError');
  assert.equal(reported, []);
});

test('a generator waiting on a hub subscription with req.signal ends when its client goes away', async () => {
  const controller = new AbortController();
  const response = await fetch(`${server.base}/events/subscribed`, { signal: controller.signal });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  assert.is((await reader.read()).value, ':\n\n');
  while (hub.subscriberCount('ticks') === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  await hub.publish('ticks', { n: 7, label: 'published', secret: 'no' } as Tick);
  assert.is((await reader.read()).value, 'data: {"n":7,"label":"published"}\n\n');
  controller.abort();
  const end = await within(closed.promise, 'the generator closed');
  assert.ok(end.aborted);
  assert.is(hub.subscriberCount('ticks'), 0);
});

test('a client that reads nothing is cut after sendTimeout, the generator closed: the server holds a bounded number of events', async () => {
  produced = 0;
  const socket = net.connect(Number(new URL(server.base).port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.pause();
  socket.write('GET /events/flood HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: identity\r\n\r\n');
  const end = await within(closed.promise, 'the generator closed');
  assert.ok(end.aborted, 'req.signal was aborted');
  // 64 KiB events: what the two sockets' buffers hold, and no more, was ever produced.
  assert.ok(produced < 256, `${produced} events produced for a client that read nothing`);
  socket.destroy();
  assert.equal(reported, []);
});

test('with compression(), the stream is compressed and each event flushed as it is yielded', async () => {
  const response = await fetch(`${server.base}/events/compressed`, { headers: { 'accept-encoding': 'gzip' } });
  assert.is(response.headers.get('content-encoding'), 'gzip');
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  while (!text.includes('"n":1')) text += (await within(reader.read(), 'the first event, before the second is yielded')).value;
  assert.is(text, `:\n\ndata: {"n":1,"label":"${'first '.repeat(200)}"}\n\n`);
  release.open();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += value;
  }
  assert.ok(text.endsWith('data: {"n":2,"label":"second"}\n\n'));
});

test('a POST route may stream (an answer token by token), its body bound as usual', async () => {
  const response = await fetch(`${server.base}/events/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ question: 'what is kiln' }),
  });
  assert.is(await response.text(), ':\n\ndata: what\n\ndata: is\n\ndata: kiln\n\n');
});

test('a handler that throws before it returns its generator answers as any handler does (404); one that fails mid-stream is cut and reported', async () => {
  const missing = await fetch(`${server.base}/events/refuses/1`);
  assert.is(missing.status, 404);
  assert.equal(await missing.json(), { error: 'Not Found', message: 'No such stream' });
  const found = await fetch(`${server.base}/events/refuses/1`, { headers: { 'x-id': 'known' } });
  assert.is(await found.text(), ':\n\ndata: {"n":1,"label":"found"}\n\n');
  const failing = await fetch(`${server.base}/events/fails`);
  assert.is(failing.status, 200);
  const error = await failing.text().then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.instance(error, TypeError, 'the connection was cut, not ended as if the stream were complete');
  await within(
    (async () => {
      while (reported.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    })(),
    'the failure reported',
  );
  assert.is((reported[0] as Error).message, 'the source failed');
});

test('a handler that returns no async iterable answers 500, reported as KILN091', async () => {
  const response = await fetch(`${server.base}/events/not-iterable`);
  assert.is(response.status, 500);
  assert.is(reported.length, 1);
  assert.is((reported[0] as KilnError).code, 'KILN091');
  assert.is(
    (reported[0] as KilnError).message,
    'GET /events/not-iterable (EventsController.notIterable) is an @Sse() route: its handler must return an async iterable (write it as an async * method), got an object (Object)',
  );
});

test('through app.fetch: the same bytes, and cancelling the body closes the generator', async () => {
  const response = await server.app.fetch(new Request('http://localhost/events/framing'));
  assert.is(response.headers.get('content-type'), 'text/event-stream');
  assert.is(
    await response.text(),
    ':\n\ndata: {"n":1,"label":"plain"}\n\nevent: price\nid: 42\nretry: 2500\ndata: {"n":2,"label":"héllo ✓ 🚀 \\"quoted\\"\\nnewline"}\n\nid: \n\n',
  );
  const endless = await server.app.fetch(new Request('http://localhost/events/endless'));
  const reader = endless.body!.getReader();
  await reader.read();
  await reader.read();
  await reader.cancel();
  const end = await within(closed.promise, 'the generator closed');
  assert.ok(end.aborted);
});

test('sseEvent refuses fields an event cannot carry (KILN090); @Sse refuses invalid options (KILN089)', () => {
  const refused = (run: () => unknown): string => {
    try {
      run();
    } catch (error) {
      assert.instance(error, KilnError);
      return `${(error as KilnError).code} ${(error as KilnError).message}`;
    }
    throw new Error('not refused');
  };
  assert.is(
    refused(() => sseEvent(1, { event: 'a\nb' })),
    'KILN090 sseEvent: event must be one line (no CR or LF), got "a\\nb"',
  );
  assert.is(
    refused(() => sseEvent(1, { id: 'a\0b' })),
    'KILN090 sseEvent: id must be one line (no CR or LF, no NUL), got "a\\u0000b"',
  );
  assert.is(
    refused(() => sseEvent(1, { id: 7 as never })),
    'KILN090 sseEvent: id must be a string, got number',
  );
  assert.is(
    refused(() => sseEvent(1, { retry: -1 })),
    'KILN090 sseEvent: retry must be a whole number of milliseconds, 0 or more, got -1',
  );
  assert.is(
    refused(() => Sse({ heartbeat: 1.5 })),
    'KILN089 @Sse: heartbeat must be a whole number of milliseconds from 0 (none) to 2147483647, got 1.5',
  );
  assert.is(
    refused(() => Sse({ retry: Number.NaN })),
    'KILN089 @Sse: retry must be a whole number of milliseconds, 0 or more, got NaN',
  );
});

test.run();
