// redisTransport against a redis-server started by this suite, with ioredis and with node-redis:
// two hubs on separate connections stand for two processes (the two-process case with an SSE
// client is test/realtime/sse-fan-out.test.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { KilnError } from '@kiln/core';
import { redisTransport, TopicHub, type RedisPubSubClient } from '@kiln/core/realtime';
import { redisInstalled, startRedis, type TestRedis } from '../support/redis-server.js';

interface Note {
  text: string;
  n: number;
}

const closers: (() => Promise<unknown>)[] = [];
// Started before any suite is queued: uvu starts running queued suites at the first await.
const redis = redisInstalled() ? await startRedis() : undefined;

type Pair = { publisher: RedisPubSubClient; subscriber: RedisPubSubClient };

async function ioPair(url: string): Promise<Pair> {
  const publisher = new Redis(url);
  const subscriber = publisher.duplicate();
  closers.push(
    () => publisher.quit(),
    () => subscriber.quit(),
  );
  return { publisher, subscriber };
}

async function nodeRedisPair(url: string): Promise<Pair> {
  const publisher = createClient({ url });
  const subscriber = publisher.duplicate();
  await Promise.all([publisher.connect(), subscriber.connect()]);
  closers.push(
    () => publisher.quit(),
    () => subscriber.quit(),
  );
  return { publisher: publisher as unknown as RedisPubSubClient, subscriber: subscriber as unknown as RedisPubSubClient };
}

function transportContract(name: string, pair: (url: string) => Promise<Pair>, redis: () => TestRedis): void {
  const Contract = suite(`redisTransport (${name})`);

  Contract('a message published on one hub reaches the subscribers of its topic on another, as JSON, in order', async () => {
    const one = new TopicHub<Note>({ transport: redisTransport({ ...(await pair(redis().url)), prefix: `${name}:a:` }) });
    const two = new TopicHub<Note>({ transport: redisTransport({ ...(await pair(redis().url)), prefix: `${name}:a:` }) });
    const stream = two.subscribe('room:1');
    const own = one.subscribe('room:1');
    const got: string[] = [];
    const callback = two.subscribe('room:1', (note) => got.push(note.text));
    await Promise.all([stream.ready, own.ready, callback.ready]);
    await one.publish('room:2', { text: 'elsewhere', n: 0 });
    for (let n = 1; n <= 3; n++) await one.publish('room:1', { text: `héllo ✓ ${n}`, n });
    for (let n = 1; n <= 3; n++) assert.equal((await stream.next()).value, { text: `héllo ✓ ${n}`, n });
    assert.equal((await own.next()).value, { text: 'héllo ✓ 1', n: 1 }, "the publisher's own subscribers receive it too");
    assert.equal(got, ['héllo ✓ 1', 'héllo ✓ 2', 'héllo ✓ 3']);
    await one.close();
    await two.close();
  });

  Contract('the channel is subscribed while the process has a subscriber, and unsubscribed after the last', async () => {
    const clients = await pair(redis().url);
    const hub = new TopicHub<Note>({ transport: redisTransport({ ...clients, prefix: `${name}:b:` }) });
    const probe = new Redis(redis().url);
    closers.push(() => probe.quit());
    const channels = async () => ((await probe.pubsub('CHANNELS', `${name}:b:*`)) as string[]).sort();
    const first = hub.subscribe('t');
    const second = hub.subscribe('t', () => {});
    await first.ready;
    assert.equal(await channels(), [`${name}:b:t`]);
    first.close();
    assert.equal(await channels(), [`${name}:b:t`]);
    second.close();
    for (let i = 0; i < 50 && (await channels()).length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(await channels(), []);
    await hub.close();
  });

  Contract('hubs with different prefixes on one Redis do not hear each other', async () => {
    const left = new TopicHub<Note>({ transport: redisTransport({ ...(await pair(redis().url)), prefix: `${name}:left:` }) });
    const right = new TopicHub<Note>({ transport: redisTransport({ ...(await pair(redis().url)), prefix: `${name}:right:` }) });
    const heard: Note[] = [];
    const subscription = right.subscribe('t', (note) => heard.push(note));
    const check = right.subscribe('t');
    await subscription.ready;
    await left.publish('t', { text: 'left', n: 1 });
    await right.publish('t', { text: 'right', n: 2 });
    assert.equal((await check.next()).value, { text: 'right', n: 2 });
    assert.equal(heard, [{ text: 'right', n: 2 }]);
    await left.close();
    await right.close();
  });

  Contract.run();
}

const Options = suite('redisTransport options');
Options('the same client as publisher and subscriber, or no client, is refused with KILN088', () => {
  const client = { publish: async () => 0, subscribe: async () => 0, unsubscribe: async () => 0, on() {}, off() {} };
  for (const [run, message] of [
    [
      () => redisTransport({ publisher: client, subscriber: client }),
      'redisTransport: publisher and subscriber must be two connections (Redis keeps a subscribing connection for pub/sub alone): pass client.duplicate() as subscriber',
    ],
    [
      () => redisTransport({ publisher: {} as never, subscriber: client }),
      'redisTransport: publisher must be an ioredis or a redis (node-redis) client',
    ],
    [
      () => redisTransport({ publisher: client, subscriber: undefined as never }),
      'redisTransport: subscriber must be an ioredis or a redis (node-redis) client',
    ],
  ] as const) {
    try {
      run();
      assert.unreachable('refused');
    } catch (error) {
      assert.instance(error, KilnError);
      assert.is((error as KilnError).code, 'KILN088');
      assert.is((error as KilnError).message, message);
    }
  }
});
Options.run();

if (redis !== undefined) {
  transportContract('ioredis', ioPair, () => redis);
  transportContract('node-redis', nodeRedisPair, () => redis);
  const Cleanup = suite('redis cleanup');
  Cleanup('clients quit and the server stops', async () => {
    for (const close of closers) await close().catch(() => {});
    await redis.stop();
  });
  Cleanup.run();
}
