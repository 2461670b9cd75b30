import { kilnError } from '../kiln-error.js';
import type { HubTransport } from './hub-transport.js';

/** The part of an `ioredis` client the transport uses. */
export interface IoRedisPubSubClient {
  publish(channel: string, message: string): Promise<unknown>;
  subscribe(channel: string): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
  on(event: 'message', listener: (channel: string, message: string) => void): unknown;
  off(event: 'message', listener: (channel: string, message: string) => void): unknown;
}

/** The part of a `redis` (node-redis 4 or later) client the transport uses. */
export interface NodeRedisPubSubClient {
  publish(channel: string, message: string): Promise<unknown>;
  subscribe(channel: string, listener: (message: string, channel: string) => void): Promise<unknown>;
  unsubscribe(channel: string, listener?: (message: string, channel: string) => void): Promise<unknown>;
  pSubscribe(...args: never[]): unknown;
}

export type RedisPubSubClient = IoRedisPubSubClient | NodeRedisPubSubClient;

export interface RedisTransportOptions {
  /** Publishes: any connected client (it may serve the rest of the app too). */
  readonly publisher: Pick<RedisPubSubClient, 'publish'>;
  /** Subscribes: a connection of its own (`client.duplicate()`), which Redis keeps in subscriber mode. */
  readonly subscriber: RedisPubSubClient;
  /** Prefixed to each topic to name its Redis channel. Default `'kiln:topic:'`. */
  readonly prefix?: string;
}

/**
 * A {@link HubTransport} over Redis pub/sub, with the application's `ioredis` or `redis` clients:
 * a topic is the channel `prefix + topic`, subscribed while this process has a subscriber to it.
 * Pub/sub delivers at most once: a process that is disconnected when a message is published
 * misses it (its subscribers stay subscribed, and receive again once the client reconnects).
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * const publisher = new Redis(process.env.REDIS_URL!);
 * const hub = new TopicHub({ transport: redisTransport({ publisher, subscriber: publisher.duplicate() }) });
 * ```
 */
export function redisTransport(options: RedisTransportOptions): HubTransport {
  const { publisher, subscriber, prefix = 'kiln:topic:' } = options ?? ({} as RedisTransportOptions);
  if (publisher === null || typeof publisher !== 'object' || typeof publisher.publish !== 'function')
    throw kilnError('KILN088', 'redisClient', 'publisher');
  if (
    subscriber === null ||
    typeof subscriber !== 'object' ||
    typeof subscriber.subscribe !== 'function' ||
    typeof subscriber.unsubscribe !== 'function'
  )
    throw kilnError('KILN088', 'redisClient', 'subscriber');
  if (typeof prefix !== 'string') throw kilnError('KILN088', 'prefix', typeof prefix);
  if (publisher === subscriber) throw kilnError('KILN088', 'sameClient');
  const subscribed = new Set<string>();
  let deliver: (topic: string, payload: string) => void = () => {};
  const received = (channel: string, message: string): void => {
    if (channel.startsWith(prefix) && subscribed.has(channel)) deliver(channel.slice(prefix.length), message);
  };
  const nodeRedis = typeof (subscriber as NodeRedisPubSubClient).pSubscribe === 'function';
  // node-redis calls a listener per channel, as (message, channel); ioredis emits one 'message' event.
  const listener = (message: string, channel: string) => received(channel, message);
  const ioRedis = subscriber as IoRedisPubSubClient;
  return {
    start(to) {
      deliver = to;
      if (!nodeRedis) ioRedis.on('message', received);
    },
    async publish(topic, payload) {
      await publisher.publish(prefix + topic, payload);
    },
    async subscribe(topic) {
      const channel = prefix + topic;
      subscribed.add(channel);
      if (nodeRedis) await (subscriber as NodeRedisPubSubClient).subscribe(channel, listener);
      else await ioRedis.subscribe(channel);
    },
    async unsubscribe(topic) {
      const channel = prefix + topic;
      subscribed.delete(channel);
      if (nodeRedis) await (subscriber as NodeRedisPubSubClient).unsubscribe(channel, listener);
      else await ioRedis.unsubscribe(channel);
    },
    async close() {
      const channels = [...subscribed];
      subscribed.clear();
      if (!nodeRedis) ioRedis.off('message', received);
      await Promise.all(
        channels.map((channel) =>
          nodeRedis ? (subscriber as NodeRedisPubSubClient).unsubscribe(channel, listener) : ioRedis.unsubscribe(channel),
        ),
      );
    },
  };
}
