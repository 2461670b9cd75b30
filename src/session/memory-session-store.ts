import { kilnError } from '../kiln-error.js';
import type { SessionStore, StoredSession } from './session-store.js';

/** How many sessions `MemorySessionStore` holds. */
export interface MemorySessionStoreOptions {
  /** Default 10,000: past it, expired sessions are dropped, then the least recently used. */
  readonly maxSessions?: number;
}

/**
 * Sessions in this process's memory: for development, tests and single-process apps (every
 * process has its own; a restart forgets them all). Bounded: a new session past `maxSessions`
 * drops the expired ones, then the least recently used, so a client that opens sessions without
 * end cannot exhaust the memory.
 *
 * @example
 * ```ts
 * session({ secrets, store: new MemorySessionStore({ maxSessions: 50_000 }) });
 * ```
 */
export class MemorySessionStore implements SessionStore {
  /** Id → session, least recently used first (a read re-inserts). */
  readonly #sessions = new Map<string, StoredSession>();
  readonly #maxSessions: number;

  constructor(options: MemorySessionStoreOptions = {}) {
    const maxSessions = options.maxSessions ?? 10_000;
    if (!Number.isInteger(maxSessions) || maxSessions < 1) throw kilnError('KILN084', 'maxSessions', maxSessions);
    this.#maxSessions = maxSessions;
  }

  /** How many sessions are held (expired ones not yet dropped included). */
  get size(): number {
    return this.#sessions.size;
  }

  get(id: string): StoredSession | undefined {
    const session = this.#sessions.get(id);
    if (session === undefined) return undefined;
    this.#sessions.delete(id);
    if (session.expires <= Date.now()) return undefined;
    this.#sessions.set(id, session);
    return session;
  }

  set(id: string, session: StoredSession): void {
    this.#sessions.delete(id);
    if (this.#sessions.size >= this.#maxSessions) this.#makeRoom();
    this.#sessions.set(id, session);
  }

  touch(id: string, expires: number): void {
    const session = this.#sessions.get(id);
    if (session !== undefined) this.set(id, { data: session.data, expires });
  }

  destroy(id: string): void {
    this.#sessions.delete(id);
  }

  #makeRoom(): void {
    const now = Date.now();
    for (const [id, session] of this.#sessions) if (session.expires <= now) this.#sessions.delete(id);
    // Still full: the least recently used go, a tenth of the budget at once so that this runs rarely.
    if (this.#sessions.size < this.#maxSessions) return;
    let drop = Math.max(1, Math.floor(this.#maxSessions / 10));
    for (const id of this.#sessions.keys()) {
      this.#sessions.delete(id);
      if (--drop === 0) break;
    }
  }
}
