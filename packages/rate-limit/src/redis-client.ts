import { RateLimitError } from './rate-limit-error.js';

/** The part of an `ioredis` client that `RedisStore` uses. */
export interface IoRedisClientLike {
  evalsha(sha: string, numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
  eval(script: string, numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
  del(key: string): Promise<unknown>;
  zrem(key: string, member: string): Promise<unknown>;
}

/** The part of a `redis` (node-redis 4 or later) client that `RedisStore` uses. */
export interface NodeRedisClientLike {
  evalSha(sha: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  del(key: string): Promise<unknown>;
  zRem(key: string, member: string): Promise<unknown>;
}

/**
 * An `ioredis` client or a `redis` client, connected (or connecting) by the application: a single
 * connection or a Cluster client (`new Cluster(...)` of ioredis, `createCluster(...)` of redis);
 * every command names its one key, so a cluster client routes it to the node that owns it.
 */
export type RedisClientLike = IoRedisClientLike | NodeRedisClientLike;

/** What RedisStore needs, whatever the client: run a script by hash (with its text as the fallback), delete a key, remove a member. */
export interface ScriptRunner {
  run(sha: string, script: string, key: string, args: string[]): Promise<unknown>;
  del(key: string): Promise<unknown>;
  remove(key: string, member: string): Promise<unknown>;
}

function isNoScript(error: unknown): boolean {
  return String((error as Error | undefined)?.message ?? error).includes('NOSCRIPT');
}

/** Wraps either client; EVALSHA first, EVAL (which also caches the script) when Redis does not know it yet. */
export function scriptRunner(client: RedisClientLike): ScriptRunner {
  if (typeof (client as NodeRedisClientLike).evalSha === 'function') {
    const redis = client as NodeRedisClientLike;
    return {
      run: (sha, script, key, args) =>
        redis.evalSha(sha, { keys: [key], arguments: args }).catch((error: unknown) => {
          if (isNoScript(error)) return redis.eval(script, { keys: [key], arguments: args });
          throw error;
        }),
      del: (key) => redis.del(key),
      remove: (key, member) => redis.zRem(key, member),
    };
  }
  if (typeof (client as IoRedisClientLike).evalsha === 'function') {
    const redis = client as IoRedisClientLike;
    return {
      run: (sha, script, key, args) =>
        redis.evalsha(sha, 1, key, ...args).catch((error: unknown) => {
          if (isNoScript(error)) return redis.eval(script, 1, key, ...args);
          throw error;
        }),
      del: (key) => redis.del(key),
      remove: (key, member) => redis.zrem(key, member),
    };
  }
  throw new RateLimitError('KILN204', 'RedisStore needs an ioredis client (evalsha) or a redis client (evalSha)');
}
