/**
 * `@kiln/rate-limit`: a sliding-window rate limiter as a Kiln middleware, with a memory store and
 * a Redis store.
 *
 * @module @kiln/rate-limit
 */
export { rateLimit, type RateLimitMiddleware } from './rate-limit.js';
export { RateLimitError, rateLimitErrorCodes, type RateLimitErrorCode } from './rate-limit-error.js';
export type { RateLimitOptions } from './rate-limit-options.js';
export type { StandardHeaders } from './rate-limit-headers.js';
export { addressKey } from './client-key.js';
export type { RateLimitStore, RateLimitStoreOptions, RateLimitHit, RateLimitRequest, RateLimitAlgorithm } from './rate-limit-store.js';
export { MemoryStore, type MemoryStoreOptions, type MemoryStoreOverflow } from './memory-store.js';
export { RedisStore, RedisStoreTimeoutError, type RedisStoreOptions } from './redis-store.js';
export type { RedisClientLike, IoRedisClientLike, NodeRedisClientLike } from './redis-client.js';
export {
  DurableObjectStore,
  RateLimiterDurableObject,
  type DurableObjectStoreOptions,
  type DurableObjectNamespaceLike,
} from './durable-object-store.js';
