import { kilnError } from '../kiln-error.js';
import type { MiddlewareFunction } from '../middleware.js';
import type { KilnRequest } from '../request/kiln-request.js';
import { kSession } from '../symbols.js';
import { cookieSigner } from '../cookies/cookie-signer.js';
import { checkedSecrets } from '../cookies/secrets.js';
import { deleteCookie, serializeCookie, type CookieOptions } from '../cookies/set-cookie.js';
import { CookieSessionStore, Sealer } from './cookie-session-store.js';
import { MemorySessionStore } from './memory-session-store.js';
import { Session } from './session.js';
import type { SessionStore } from './session-store.js';

/** The options of `session()`. */
export interface SessionOptions {
  /**
   * Secrets, newest first, of at least 32 characters each: they sign the session id in the
   * cookie (server stores) or seal the session (CookieSessionStore). Rotate by putting a new one first.
   */
  readonly secrets: string | readonly string[];
  /** Default: a `MemorySessionStore` of this process. */
  readonly store?: SessionStore | CookieSessionStore;
  /** Seconds a session lives without a request (rolling) or at all. Default 86,400 (one day). */
  readonly maxAge?: number;
  /** Each request moves the expiry `maxAge` on (and sends the cookie again). Default `true`. */
  readonly rolling?: boolean;
  /**
   * The cookie. Its name defaults to `__Host-sid` over HTTPS (or with `secure: true`), else `sid`;
   * `secure` defaults to whether the request came over HTTPS; `HttpOnly`, `SameSite=Lax`, `Path=/`.
   */
  readonly cookie?: Pick<CookieOptions, 'secure' | 'sameSite' | 'domain' | 'path' | 'partitioned'> & { readonly name?: string };
}

// What a browser keeps of one cookie, name and attributes included.
const largestCookie = 4096;

interface Loaded {
  readonly session: Session;
  readonly text: string;
  readonly expires: number | undefined;
}

/**
 * Sessions on `req.session`, typed by the application's `SessionData` (declaration merging). The
 * session is read from its cookie before the route runs and saved once it has answered, only when
 * it changed (or to renew a rolling expiry). A missing, expired, forged or tampered cookie is a new,
 * empty session, never an error. Call `req.session.regenerate()` on sign-in (fixation defence),
 * `req.session.destroy()` on sign-out. Put `csrf()` after it on routes that change anything.
 *
 * @example
 * ```ts
 * declare module '@kiln/core' {
 *   interface SessionData { userId: string }
 * }
 * const sessions = session({ secrets: [process.env.SESSION_SECRET!], store: new RedisSessionStore({ client: redis }) });
 *
 * @Controller('/account', sessions, csrf())
 * class AccountController {
 *   @Post('/login') login(@Req() req: KilnRequest, @Body() body: Credentials) {
 *     req.session.regenerate();
 *     req.session.set('userId', checkPassword(body));
 *     return { ok: true };
 *   }
 * }
 * ```
 */
export function session(options: SessionOptions): MiddlewareFunction {
  if (options === null || typeof options !== 'object') throw kilnError('KILN084', 'options');
  const secrets = checkedSecrets(options.secrets, 'session');
  const store = options.store ?? new MemorySessionStore();
  const maxAge = options.maxAge ?? 86_400;
  if (!Number.isInteger(maxAge) || maxAge < 1) throw kilnError('KILN084', 'maxAge', maxAge);
  const rolling = options.rolling ?? true;
  const cookie = options.cookie ?? {};
  const sealed = store instanceof CookieSessionStore;
  if (!sealed && (typeof store !== 'object' || ['get', 'set', 'touch', 'destroy'].some((m) => typeof (store as never)[m] !== 'function')))
    throw kilnError('KILN084', 'store');
  const serverStore = sealed ? undefined : (store as SessionStore);
  const signer = cookieSigner(secrets);
  const sealer = new Sealer(secrets);

  const secureFor = (req: KilnRequest) => cookie.secure ?? req.protocol === 'https';
  const nameFor = (req: KilnRequest) =>
    cookie.name ?? (secureFor(req) && cookie.domain === undefined && (cookie.path ?? '/') === '/' ? '__Host-sid' : 'sid');
  const attributes = (req: KilnRequest): CookieOptions => ({
    secure: secureFor(req),
    sameSite: cookie.sameSite ?? 'lax',
    domain: cookie.domain,
    path: cookie.path,
    partitioned: cookie.partitioned,
  });
  // Checked once: a cookie the browser would drop (a __Host- name with a domain) is a start-up error.
  serializeCookie(cookie.name ?? 'sid', '', { ...attributes({ protocol: 'https' } as KilnRequest), secure: cookie.secure ?? true });

  const load = async (req: KilnRequest, name: string): Promise<Loaded> => {
    const sent = req.cookies[name];
    if (sent !== undefined && sent !== '') {
      if (serverStore !== undefined) {
        const id = await signer.verify(sent);
        const stored = id === undefined ? undefined : await serverStore.get(id);
        if (stored !== undefined) {
          const data = parseData(stored.data);
          if (data !== undefined) return { session: new Session(id, data), text: stored.data, expires: stored.expires };
        }
      } else {
        const opened = await sealer.open(sent);
        const payload = opened === undefined ? undefined : parseSealed(opened);
        if (payload !== undefined && payload.e > Date.now()) {
          const text = JSON.stringify(payload.d);
          return { session: new Session(payload.i, payload.d), text, expires: payload.e };
        }
      }
    }
    return { session: new Session(undefined, Object.create(null)), text: '{}', expires: undefined };
  };

  const writeCookie = (req: KilnRequest, name: string, value: string, expires: number) => {
    const line = serializeCookie(name, value, { ...attributes(req), maxAge: Math.max(1, Math.round((expires - Date.now()) / 1000)) });
    if (line.length > largestCookie) throw kilnError('KILN085', 'cookieTooLarge', line.length, largestCookie);
    req.setResponseHeader('set-cookie', line);
  };

  const save = async (req: KilnRequest, name: string, current: Session, text: string, expires: number) => {
    if (serverStore !== undefined) {
      await serverStore.set(current.id, { data: text, expires });
      writeCookie(req, name, await signer.sign(current.id), expires);
    } else {
      writeCookie(req, name, await sealer.seal(JSON.stringify({ i: current.id, e: expires, d: JSON.parse(text) })), expires);
    }
  };

  const commit = async (req: KilnRequest, name: string, loaded: Loaded) => {
    const current = loaded.session;
    const text = JSON.stringify(current);
    const empty = text === '{}';
    const now = Date.now();
    const renewed = now + maxAge * 1000;
    const hadCookie = req.cookies[name] !== undefined;
    const ended = current.fate !== 'kept' || (empty && !current.isNew);
    if (ended && current.previousId !== undefined && serverStore !== undefined) await serverStore.destroy(current.previousId);
    if (empty) {
      if (hadCookie && (ended || current.isNew)) deleteCookie(req, name, attributes(req));
      return;
    }
    if (current.fate === 'regenerated' || current.isNew) return save(req, name, current, text, renewed);
    if (text !== loaded.text) return save(req, name, current, text, rolling ? renewed : (loaded.expires ?? renewed));
    if (!rolling) return;
    if (serverStore !== undefined) {
      await serverStore.touch(current.id, renewed);
      writeCookie(req, name, req.cookies[name]!, renewed);
    } else await save(req, name, current, text, renewed);
  };

  return async function sessionMiddleware(req: KilnRequest, next: () => Promise<Response>) {
    const name = nameFor(req);
    const loaded = await load(req, name);
    (req as { [kSession]?: Session })[kSession] = loaded.session;
    await next();
    await commit(req, name, loaded);
    return undefined;
  };
}

/** Session data from its JSON text; `undefined` when it is not an object (a store written by something else). */
function parseData(text: string): Record<string, unknown> | undefined {
  try {
    const data: unknown = JSON.parse(text);
    return data !== null && typeof data === 'object' && !Array.isArray(data) ? Object.assign(Object.create(null), data) : undefined;
  } catch {
    return undefined;
  }
}

function parseSealed(text: string): { i: string; e: number; d: Record<string, unknown> } | undefined {
  try {
    const payload = JSON.parse(text) as { i?: unknown; e?: unknown; d?: unknown };
    if (typeof payload?.i !== 'string' || typeof payload.e !== 'number') return undefined;
    const data = parseData(JSON.stringify(payload.d));
    return data === undefined ? undefined : { i: payload.i, e: payload.e, d: data };
  } catch {
    return undefined;
  }
}
