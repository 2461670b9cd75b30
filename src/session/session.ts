import { randomToken } from '../cookies/base64url.js';

/**
 * What a session holds: empty here, declared by the application (declaration merging), so that
 * `req.session.get('userId')` is typed. Values must survive JSON.
 *
 * @example
 * ```ts
 * declare module '@kiln/core' {
 *   interface SessionData { userId: string; visits: number }
 * }
 * ```
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by the application's declaration merging
export interface SessionData {}

/** How a request's session ends up: what `session()` writes once the answer is made. */
export type SessionFate = 'kept' | 'regenerated' | 'destroyed';

/**
 * A request's session (`req.session`). Reads and writes are in memory; `session()` stores the
 * session (and sets its cookie) once the route has answered, and only when it changed, unless
 * rolling expiry renews it.
 */
export class Session<Data extends object = SessionData> {
  #id: string;
  #data: Partial<Data>;
  #fate: SessionFate = 'kept';
  readonly #isNew: boolean;
  /** The id the request came with (a regenerated session's old one, to delete). */
  readonly previousId: string | undefined;

  /** @internal built by `session()` */
  constructor(id: string | undefined, data: Partial<Data>) {
    this.previousId = id;
    this.#isNew = id === undefined;
    this.#id = id ?? randomToken();
    this.#data = data;
  }

  /** The session's id: new after `regenerate()`. */
  get id(): string {
    return this.#id;
  }

  /** True when the request came without a valid session (none, expired, forged, tampered). */
  get isNew(): boolean {
    return this.#isNew;
  }

  /** What happens to it when the answer is made. */
  get fate(): SessionFate {
    return this.#fate;
  }

  get<K extends keyof Data>(key: K): Data[K] | undefined {
    return Object.hasOwn(this.#data, key) ? this.#data[key] : undefined;
  }

  /** Sets a value. An object read with `get` and changed in place is saved too (the whole session is compared). */
  set<K extends keyof Data>(key: K, value: Data[K]): void {
    if (this.#fate === 'destroyed') this.#fate = 'regenerated';
    this.#data[key] = value;
  }

  delete<K extends keyof Data>(key: K): void {
    delete this.#data[key];
  }

  /** A copy of everything it holds. */
  toJSON(): Partial<Data> {
    return { ...this.#data };
  }

  /**
   * A new, empty session under a new id; the old one is deleted from the store. Call it when the
   * user signs in (or their rights change): an id an attacker planted before (session fixation)
   * is then worth nothing.
   */
  regenerate(): void {
    this.#id = randomToken();
    this.#data = Object.create(null);
    this.#fate = 'regenerated';
  }

  /** Ends the session: deleted from the store, its cookie cleared. A `set` afterwards starts a new one. */
  destroy(): void {
    this.#data = Object.create(null);
    this.#id = randomToken();
    this.#fate = 'destroyed';
  }
}
