// TopicHub in one process: what subscribers receive and when, bounded buffers, closing (by the
// subscriber, its signal, the hub), and the start-up checks of its options (KILN088).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { KilnError } from '@kiln/core';
import { TopicHub, type HubTransport } from '@kiln/core/realtime';

interface Tick {
  n: number;
}

function refusal(run: () => unknown): KilnError {
  try {
    run();
  } catch (error) {
    assert.instance(error, KilnError);
    return error as KilnError;
  }
  throw new Error('expected a KilnError');
}

test('an iterating subscriber receives every message published after it subscribed, in order', async () => {
  const hub = new TopicHub<Tick>();
  await hub.publish('ticks', { n: 0 });
  const stream = hub.subscribe('ticks');
  await hub.publish('ticks', { n: 1 });
  await hub.publish('other', { n: 99 });
  await hub.publish('ticks', { n: 2 });
  assert.equal(await stream.next(), { value: { n: 1 }, done: false });
  assert.equal(await stream.next(), { value: { n: 2 }, done: false });
  const pending = stream.next();
  await hub.publish('ticks', { n: 3 });
  assert.equal(await pending, { value: { n: 3 }, done: false });
  stream.close();
  assert.equal(await stream.next(), { value: undefined, done: true });
  assert.is(hub.subscriberCount('ticks'), 0);
});

test('a callback subscriber is called with each message and its topic; close() stops it', async () => {
  const hub = new TopicHub<string>();
  const got: [string, string][] = [];
  const subscription = hub.subscribe('room:1', (message, topic) => got.push([message, topic]));
  await subscription.ready;
  await hub.publish('room:1', 'hello');
  await hub.publish('room:2', 'elsewhere');
  subscription.close();
  await hub.publish('room:1', 'after close');
  assert.equal(got, [['hello', 'room:1']]);
  assert.ok(subscription.closed);
});

test('a callback that throws is reported to onError and the other subscribers still receive the message', async () => {
  const errors: [unknown, string][] = [];
  const hub = new TopicHub<number>({ onError: (error, topic) => errors.push([error, topic]) });
  const got: number[] = [];
  hub.subscribe('t', () => {
    throw new Error('listener failed');
  });
  hub.subscribe('t', (n) => got.push(n));
  await hub.publish('t', 7);
  assert.equal(got, [7]);
  assert.is(errors.length, 1);
  assert.is((errors[0]![0] as Error).message, 'listener failed');
  assert.is(errors[0]![1], 't');
});

test('for await ends when the signal aborts, even while waiting for a message', async () => {
  const hub = new TopicHub<Tick>();
  const controller = new AbortController();
  const received: number[] = [];
  const loop = (async () => {
    for await (const tick of hub.subscribe('ticks', { signal: controller.signal })) received.push(tick.n);
    return 'ended';
  })();
  await hub.publish('ticks', { n: 1 });
  await new Promise((resolve) => setTimeout(resolve, 5));
  controller.abort();
  assert.is(await loop, 'ended');
  assert.equal(received, [1]);
  assert.is(hub.subscriberCount('ticks'), 0);
});

test('an already aborted signal gives a closed subscription', async () => {
  const hub = new TopicHub();
  const stream = hub.subscribe('t', { signal: AbortSignal.abort() });
  assert.ok(stream.closed);
  assert.equal(await stream.next(), { value: undefined, done: true });
  assert.is(hub.subscriberCount('t'), 0);
});

test("overflow 'end': a subscriber bufferSize messages behind is ended and its queue freed; the others go on", async () => {
  const hub = new TopicHub<number>({ bufferSize: 3 });
  const slow = hub.subscribe('t');
  const got: number[] = [];
  hub.subscribe('t', (n) => got.push(n));
  for (let n = 1; n <= 4; n++) await hub.publish('t', n);
  assert.ok(slow.overflowed);
  assert.ok(slow.closed);
  assert.equal(await slow.next(), { value: undefined, done: true });
  assert.equal(got, [1, 2, 3, 4]);
  assert.is(hub.subscriberCount('t'), 1);
});

test("overflow 'drop-oldest': the subscriber keeps the newest bufferSize messages and counts the dropped", async () => {
  const hub = new TopicHub<number>();
  const stream = hub.subscribe('t', { bufferSize: 2, overflow: 'drop-oldest' });
  for (let n = 1; n <= 5; n++) await hub.publish('t', n);
  assert.is(stream.dropped, 3);
  assert.not.ok(stream.overflowed);
  assert.equal((await stream.next()).value, 4);
  assert.equal((await stream.next()).value, 5);
});

test('a long-lived queue read as fast as it is filled holds at most bufferSize messages', async () => {
  const hub = new TopicHub<number>({ bufferSize: 100 });
  const stream = hub.subscribe('t');
  let last = 0;
  for (let n = 1; n <= 10_000; n++) {
    await hub.publish('t', n);
    if (n % 50 === 0) for (let i = 0; i < 50; i++) last = (await stream.next()).value as number;
  }
  assert.is(last, 10_000);
  assert.not.ok(stream.overflowed);
});

test('hub.close() ends every iteration and stops every callback; publish and subscribe then refuse (KILN088)', async () => {
  const hub = new TopicHub<number>();
  const stream = hub.subscribe('a');
  const pending = stream.next();
  const callback = hub.subscribe('b', () => {});
  await hub.close();
  assert.equal(await pending, { value: undefined, done: true });
  assert.ok(callback.closed);
  await hub.close();
  const error = await hub.publish('a', 1).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.instance(error, KilnError);
  assert.is((error as KilnError).code, 'KILN088');
  assert.is((error as KilnError).message, 'TopicHub: publish() after close()');
  assert.is(refusal(() => hub.subscribe('a')).message, 'TopicHub: subscribe() after close()');
});

test('two readers of one stream each get a different message, first come first served', async () => {
  const hub = new TopicHub<number>();
  const stream = hub.subscribe('t');
  const first = stream.next();
  const second = stream.next();
  await hub.publish('t', 1);
  await hub.publish('t', 2);
  assert.equal([(await first).value, (await second).value], [1, 2]);
});

test('invalid options and topics are refused with KILN088 and a message saying what to change', () => {
  assert.is(
    refusal(() => new TopicHub({ bufferSize: 0 })).message,
    'TopicHub: bufferSize must be a whole number of messages above 0, got 0',
  );
  assert.is(
    refusal(() => new TopicHub({ overflow: 'block' as never })).message,
    `TopicHub: overflow must be 'end' or 'drop-oldest', got "block"`,
  );
  assert.is(
    refusal(() => new TopicHub({ transport: {} as HubTransport })).message,
    'TopicHub: transport must have start, publish, subscribe, unsubscribe and close (redisTransport(...) makes one)',
  );
  const hub = new TopicHub();
  assert.is(refusal(() => hub.subscribe('')).message, 'TopicHub: a topic must be a non-empty string, got an empty string');
  assert.is(refusal(() => hub.subscribe(42 as never)).message, 'TopicHub: a topic must be a non-empty string, got number');
  assert.is(
    refusal(() => hub.subscribe('t', { signal: {} as AbortSignal })).message,
    'TopicHub: signal must be an AbortSignal (such as req.signal)',
  );
  assert.is(refusal(() => hub.subscribe('t', { bufferSize: 1.5 })).code, 'KILN088');
});

test('with a transport, a message goes through it as JSON and comes back to the subscribers of its topic', async () => {
  const sent: [string, string][] = [];
  const listened: string[] = [];
  let deliver: (topic: string, payload: string) => void = () => {};
  const loopback: HubTransport = {
    start: (to) => {
      deliver = to;
    },
    publish: async (topic, payload) => {
      sent.push([topic, payload]);
      deliver(topic, payload);
    },
    subscribe: async (topic) => {
      listened.push(`+${topic}`);
    },
    unsubscribe: async (topic) => {
      listened.push(`-${topic}`);
    },
    close: async () => {},
  };
  const hub = new TopicHub<{ at: Date | string }>({ transport: loopback });
  const stream = hub.subscribe('t');
  const other = hub.subscribe('t');
  await stream.ready;
  await hub.publish('t', { at: new Date(0) });
  assert.equal(sent, [['t', '{"at":"1970-01-01T00:00:00.000Z"}']]);
  assert.equal((await stream.next()).value, { at: '1970-01-01T00:00:00.000Z' });
  stream.close();
  assert.equal(listened, ['+t'], 'the topic stays subscribed while it has a subscriber');
  other.close();
  assert.equal(listened, ['+t', '-t']);
  const unsendable = await hub.publish('t', undefined as never).then(
    () => undefined,
    (e: KilnError) => e.message,
  );
  assert.is(unsendable, 'TopicHub: the message published to "t" is undefined, which JSON cannot carry to the other processes');
});

test.run();
