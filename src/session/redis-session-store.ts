import { kilnError } from '../kiln-error.js';
import type { SessionStore, StoredSession } from './session-store.js';

/** The part of an `ioredis` client the store uses. */
export interface IoRedisSessionClient {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, mode: 'PX', milliseconds: number): Promise<unknown>;
  pexpire(key: string, milliseconds: number): Promise<unknown>;
  del(key: string): Promise<unknown>;
}

/** The part of a `redis` (node-redis 4 or later) client the store uses. */
export interface NodeRedisSessionClient {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, options: { PX: number }): Promise<unknown>;
  pExpire(key: string, milliseconds: number): Promise<unknown>;
  del(key: string): Promise<unknown>;
}

export interface RedisSessionStoreOptions {
  /** An `ioredis` or `redis` client, connected by the application (a cluster client works too: one key per command). */
  readonly client: IoRedisSessionClient | NodeRedisSessionClient;
  /** Default `'kiln:session:'`. */
  readonly prefix?: string;
}

/**
 * Sessions in Redis, shared by every process of the app: each is one key holding its JSON with a
 * TTL of its remaining lifetime (`SET … PX`), moved on by `PEXPIRE` for rolling sessions. A Redis
 * restart without persistence forgets them: their cookies then read as new, empty sessions.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * session({ secrets, store: new RedisSessionStore({ client: new Redis(process.env.REDIS_URL!) }) });
 * ```
 */
export class RedisSessionStore implements SessionStore {
  readonly #prefix: string;
  readonly #write: (key: string, value: string, ms: number) => Promise<unknown>;
  readonly #expire: (key: string, ms: number) => Promise<unknown>;
  readonly #client: IoRedisSessionClient | NodeRedisSessionClient;

  constructor(options: RedisSessionStoreOptions) {
    const client = options?.client;
    if (client === null || typeof client !== 'object' || typeof client.get !== 'function' || typeof client.del !== 'function')
      throw kilnError('KILN084', 'redisClient');
    this.#client = client;
    this.#prefix = options.prefix ?? 'kiln:session:';
    if (typeof (client as NodeRedisSessionClient).pExpire === 'function') {
      const redis = client as NodeRedisSessionClient;
      this.#write = (key, value, ms) => redis.set(key, value, { PX: ms });
      this.#expire = (key, ms) => redis.pExpire(key, ms);
    } else {
      const redis = client as IoRedisSessionClient;
      this.#write = (key, value, ms) => redis.set(key, value, 'PX', ms);
      this.#expire = (key, ms) => redis.pexpire(key, ms);
    }
  }

  async get(id: string): Promise<StoredSession | undefined> {
    const text = await this.#client.get(this.#prefix + id);
    if (text === null) return undefined;
    // Redis drops the key at its TTL, which decides; the expiry written beside the data is the
    // one it was set with (rolling sessions move the TTL alone, and set their own expiry).
    const colon = text.indexOf(':');
    const expires = Number(text.slice(0, colon));
    if (colon === -1 || !Number.isFinite(expires)) return undefined;
    return { expires, data: text.slice(colon + 1) };
  }

  async set(id: string, session: StoredSession): Promise<void> {
    const ms = Math.ceil(session.expires - Date.now());
    if (ms <= 0) return this.destroy(id);
    await this.#write(this.#prefix + id, `${session.expires}:${session.data}`, ms);
  }

  async touch(id: string, expires: number): Promise<void> {
    const ms = Math.ceil(expires - Date.now());
    if (ms > 0) await this.#expire(this.#prefix + id, ms);
  }

  async destroy(id: string): Promise<void> {
    await this.#client.del(this.#prefix + id);
  }
}
