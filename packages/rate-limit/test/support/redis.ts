import { Redis } from 'ioredis';

/** REDIS_URL when set (CI sets it), else a local default. */
export const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const explicit = process.env.REDIS_URL !== undefined;

export type RedisAvailability = { client: Redis } | { skip: string };

/**
 * A connected ioredis client, or why the Redis suites skip. An explicit REDIS_URL that does not
 * answer is an error, not a skip: CI must never pass by skipping them.
 */
export async function connectRedis(): Promise<RedisAvailability> {
  const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 1000, retryStrategy: () => null });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return { client };
  } catch (error) {
    client.disconnect();
    if (explicit) throw new Error(`REDIS_URL=${redisUrl} is set but Redis does not answer: ${(error as Error).message}`);
    return { skip: `no Redis at ${redisUrl} (set REDIS_URL, or run redis-server on 127.0.0.1:6379): Redis tests skipped` };
  }
}

/** A client for a given URL that any test can open and close on its own. */
export function redisClient(): Redis {
  const client = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  client.on('error', () => {});
  return client;
}
