/** A session as a server store keeps it: its data as JSON text and when it expires (ms since the epoch). */
export interface StoredSession {
  readonly data: string;
  readonly expires: number;
}

/**
 * Where `session()` keeps sessions on the server, by id. Every member may return a promise. The
 * middleware calls `get` once per request that carries a valid session cookie, and at most one of
 * `set`, `touch` or `destroy` (two for `regenerate()`: `destroy` of the old id, `set` of the new).
 */
export interface SessionStore {
  /** The session, or `undefined` when it is unknown or expired. */
  get(id: string): Promise<StoredSession | undefined> | StoredSession | undefined;
  /** Stores a session until `expires`. */
  set(id: string, session: StoredSession): Promise<void> | void;
  /** Moves a session's expiry to `expires` (rolling sessions), keeping its data. */
  touch(id: string, expires: number): Promise<void> | void;
  destroy(id: string): Promise<void> | void;
}
