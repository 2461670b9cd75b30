import { RateLimitError } from './rate-limit-error.js';

/** The part of an `ioredis` client that `RedisStore` uses. */
export interface IoRedisClientLike {
  evalsha(sha: string, numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
  eval(script: string, numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
  del(key: string): Promise<unknown>;
  zrem(key: string, member: string): Promise<unknown>;
  /** For `resetAll`. */
  scan?(
    cursor: string,
    matchToken: 'MATCH',
    pattern: string,
    countToken: 'COUNT',
    count: number,
  ): Promise<[cursor: string, keys: string[]]>;
  /** For `resetAll`. */
  unlink?(...keys: string[]): Promise<unknown>;
  /** An ioredis `Cluster`: its master nodes, each scanned by `resetAll`. */
  nodes?(role: 'master'): IoRedisClientLike[];
}

/** The part of a `redis` (node-redis 4 or later) client that `RedisStore` uses. */
export interface NodeRedisClientLike {
  evalSha(sha: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  del(key: string): Promise<unknown>;
  zRem(key: string, member: string): Promise<unknown>;
  /** For `resetAll`. */
  scanIterator?(options: { MATCH: string; COUNT: number }): AsyncIterable<string[] | string>;
  /** For `resetAll`. */
  unlink?(keys: string | string[]): Promise<unknown>;
  /** A node-redis cluster: its masters, each scanned by `resetAll` through `nodeClient`. */
  readonly masters?: readonly unknown[];
  nodeClient?(node: never): Promise<NodeRedisClientLike>;
}

/**
 * An `ioredis` client or a `redis` client, connected (or connecting) by the application: a single
 * connection or a Cluster client (`new Cluster(...)` of ioredis, `createCluster(...)` of redis);
 * every command names its one key, so a cluster client routes it to the node that owns it.
 */
export type RedisClientLike = IoRedisClientLike | NodeRedisClientLike;

/** What RedisStore needs, whatever the client: run a script by hash or by text, delete a key, remove a member. */
export interface ScriptRunner {
  /**
   * EVALSHA: rejects with NOSCRIPT (see `isNoScript`) when Redis does not know the script yet.
   * `second`, when given, is the script's KEYS[2] (a key in the same hash slot as `key`).
   */
  run(sha: string, key: string, args: string[], second?: string): Promise<unknown>;
  /** EVAL, which also caches the script for the next EVALSHA. */
  evaluate(script: string, key: string, args: string[], second?: string): Promise<unknown>;
  del(key: string): Promise<unknown>;
  remove(key: string, member: string): Promise<unknown>;
  /** Deletes every key matching a SCAN pattern, on every master of a cluster; resolves to how many. */
  deleteMatching(pattern: string): Promise<number>;
}

function needs(what: string): never {
  throw new RateLimitError('KILN206', `RedisStore.resetAll needs the client's ${what}`);
}

/** node-redis: SCAN each master (or the one server), UNLINK key by key (keys of a cluster are in different slots). */
async function deleteMatchingNodeRedis(redis: NodeRedisClientLike, pattern: string): Promise<number> {
  const unlink = redis.unlink?.bind(redis) ?? needs('unlink');
  const nodes =
    redis.masters !== undefined && redis.nodeClient !== undefined
      ? await Promise.all(redis.masters.map((master) => redis.nodeClient!(master as never)))
      : [redis];
  let deleted = 0;
  for (const node of nodes) {
    const pages = node.scanIterator?.({ MATCH: pattern, COUNT: 1000 }) ?? needs('scanIterator');
    for await (const page of pages) {
      const keys = typeof page === 'string' ? [page] : page;
      await Promise.all(keys.map((key) => unlink(key)));
      deleted += keys.length;
    }
  }
  return deleted;
}

/** ioredis: SCAN each master (or the one server), UNLINK key by key. */
async function deleteMatchingIoRedis(redis: IoRedisClientLike, pattern: string): Promise<number> {
  const unlink = redis.unlink?.bind(redis) ?? needs('unlink');
  const nodes = typeof redis.nodes === 'function' ? redis.nodes('master') : [redis];
  let deleted = 0;
  for (const node of nodes) {
    if (typeof node.scan !== 'function') needs('scan');
    let cursor = '0';
    do {
      const [next, keys] = await node.scan!(cursor, 'MATCH', pattern, 'COUNT', 1000);
      await Promise.all(keys.map((key) => unlink(key)));
      deleted += keys.length;
      cursor = String(next);
    } while (cursor !== '0');
  }
  return deleted;
}

/** Redis does not know the script by that hash (a restart, SCRIPT FLUSH, a new cluster node): send its text. */
export function isNoScript(error: unknown): boolean {
  return String((error as Error | undefined)?.message ?? error).includes('NOSCRIPT');
}

/** Wraps either client. The caller sends EVALSHA first and EVAL when Redis answers NOSCRIPT (no extra promise per call for the fallback). */
export function scriptRunner(client: RedisClientLike): ScriptRunner {
  if (typeof (client as NodeRedisClientLike).evalSha === 'function') {
    const redis = client as NodeRedisClientLike;
    return {
      run: (sha, key, args, second) => redis.evalSha(sha, { keys: second === undefined ? [key] : [key, second], arguments: args }),
      evaluate: (script, key, args, second) => redis.eval(script, { keys: second === undefined ? [key] : [key, second], arguments: args }),
      del: (key) => redis.del(key),
      remove: (key, member) => redis.zRem(key, member),
      deleteMatching: (pattern) => deleteMatchingNodeRedis(redis, pattern),
    };
  }
  if (typeof (client as IoRedisClientLike).evalsha === 'function') {
    const redis = client as IoRedisClientLike;
    return {
      // the scripts take five arguments: no spread (an array per call)
      run: (sha, key, args, second) =>
        second !== undefined
          ? redis.evalsha(sha, 2, key, second, ...args)
          : args.length === 5
            ? redis.evalsha(sha, 1, key, args[0]!, args[1]!, args[2]!, args[3]!, args[4]!)
            : redis.evalsha(sha, 1, key, ...args),
      evaluate: (script, key, args, second) =>
        second === undefined ? redis.eval(script, 1, key, ...args) : redis.eval(script, 2, key, second, ...args),
      del: (key) => redis.del(key),
      remove: (key, member) => redis.zrem(key, member),
      deleteMatching: (pattern) => deleteMatchingIoRedis(redis, pattern),
    };
  }
  throw new RateLimitError('KILN204', 'RedisStore needs an ioredis client (evalsha) or a redis client (evalSha)');
}
