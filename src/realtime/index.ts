/**
 * `@kiln/core/realtime`: topics that messages are published to and subscribers receive, for
 * server-sent event streams and WebSockets: in-process by default, across processes through Redis
 * pub/sub with the application's own `ioredis` or `redis` clients (no dependency of Kiln's).
 *
 * @module @kiln/core/realtime
 */
export { TopicHub, type TopicHubOptions, type SubscribeOptions, type TopicListener } from './topic-hub.js';
export type { Subscription, MessageStream, OverflowPolicy } from './subscription.js';
export type { HubTransport } from './hub-transport.js';
export {
  redisTransport,
  type RedisTransportOptions,
  type RedisPubSubClient,
  type IoRedisPubSubClient,
  type NodeRedisPubSubClient,
} from './redis-transport.js';
