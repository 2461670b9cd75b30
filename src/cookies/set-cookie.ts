import { kilnError } from '../kiln-error.js';
import type { KilnRequest } from '../request/kiln-request.js';

/** The attributes of a `Set-Cookie` (RFC 6265bis and CHIPS). */
export interface CookieOptions {
  /** Seconds until the browser drops it; `0` deletes it. Without it (and `expires`), a session cookie. */
  readonly maxAge?: number;
  readonly expires?: Date;
  /** Default `/`. */
  readonly path?: string;
  /** Sends it to this domain and its subdomains; without it, to this host only. */
  readonly domain?: string;
  /** Default `true`: scripts in the page cannot read it. */
  readonly httpOnly?: boolean;
  /** Sent over HTTPS only. Required by `sameSite: 'none'`, `partitioned` and the `__Secure-` / `__Host-` prefixes. */
  readonly secure?: boolean;
  /** Default `'lax'`. */
  readonly sameSite?: 'strict' | 'lax' | 'none';
  /** CHIPS: a third-party cookie kept per top-level site. Needs `secure`. */
  readonly partitioned?: boolean;
  readonly priority?: 'low' | 'medium' | 'high';
}

// RFC 6265 cookie-name: an HTTP token.
const cookieName = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// What a path or domain attribute may hold: no control characters and no ';'.
const attributeValue = /^[\x20-\x3a\x3c-\x7e]+$/;

function refuse(name: string, message: string): never {
  throw kilnError('KILN082', 'refused', name, message);
}

/**
 * One `Set-Cookie` value. The value is percent-encoded (what `req.cookies` decodes). Throws a
 * KILN082 KilnError for a name that is not a token, an attribute that cannot be sent, or a
 * prefix rule broken: `__Secure-` needs `secure`; `__Host-` needs `secure`, `path: '/'` and no
 * `domain` (the browser would drop the cookie silently).
 *
 * @example
 * ```ts
 * serializeCookie('__Host-theme', 'dark', { secure: true, maxAge: 86400 });
 * // '__Host-theme=dark; Max-Age=86400; Path=/; HttpOnly; Secure; SameSite=Lax'
 * ```
 */
export function serializeCookie(name: string, value: string, options: CookieOptions = {}): string {
  if (typeof name !== 'string' || !cookieName.test(name))
    refuse(String(name), "the name must be an HTTP token (letters, digits and !#$%&'*+-.^_`|~)");
  if (typeof value !== 'string') refuse(name, `the value must be a string, got ${typeof value}`);
  const path = options.path ?? '/';
  const secure = options.secure === true;
  const sameSite = options.sameSite ?? 'lax';
  const lower = name.toLowerCase();
  if (lower.startsWith('__secure-') && !secure) refuse(name, 'the __Secure- prefix needs { secure: true } (browsers drop it otherwise)');
  if (lower.startsWith('__host-')) {
    if (!secure) refuse(name, 'the __Host- prefix needs { secure: true } (browsers drop it otherwise)');
    if (path !== '/') refuse(name, `the __Host- prefix needs path '/', got ${JSON.stringify(path)}`);
    if (options.domain !== undefined) refuse(name, 'the __Host- prefix forbids a domain (the cookie belongs to this host only)');
  }
  if (sameSite !== 'strict' && sameSite !== 'lax' && sameSite !== 'none')
    refuse(name, `sameSite must be 'strict', 'lax' or 'none', got ${JSON.stringify(sameSite)}`);
  if (sameSite === 'none' && !secure) refuse(name, "sameSite: 'none' needs { secure: true } (browsers drop it otherwise)");
  if (options.partitioned === true && !secure) refuse(name, 'partitioned needs { secure: true }');
  let text = `${name}=${encodeURIComponent(value)}`;
  if (options.maxAge !== undefined) {
    if (!Number.isInteger(options.maxAge)) refuse(name, `maxAge must be a whole number of seconds, got ${String(options.maxAge)}`);
    text += `; Max-Age=${options.maxAge}`;
  }
  if (options.expires !== undefined) {
    if (!(options.expires instanceof Date) || Number.isNaN(options.expires.getTime())) refuse(name, 'expires must be a valid Date');
    text += `; Expires=${options.expires.toUTCString()}`;
  }
  if (typeof path !== 'string' || !attributeValue.test(path) || !path.startsWith('/'))
    refuse(name, `path must start with '/' and hold no ';' or control character, got ${JSON.stringify(path)}`);
  text += `; Path=${path}`;
  if (options.domain !== undefined) {
    if (typeof options.domain !== 'string' || !attributeValue.test(options.domain))
      refuse(name, `domain ${JSON.stringify(options.domain)} cannot be sent`);
    text += `; Domain=${options.domain}`;
  }
  if (options.httpOnly ?? true) text += '; HttpOnly';
  if (secure) text += '; Secure';
  text += `; SameSite=${sameSite === 'strict' ? 'Strict' : sameSite === 'lax' ? 'Lax' : 'None'}`;
  if (options.partitioned === true) text += '; Partitioned';
  if (options.priority !== undefined) {
    if (!['low', 'medium', 'high'].includes(options.priority)) refuse(name, "priority must be 'low', 'medium' or 'high'");
    text += `; Priority=${options.priority[0]!.toUpperCase()}${options.priority.slice(1)}`;
  }
  return text;
}

/**
 * Adds a `Set-Cookie` to whatever answer the request ends with (an error included), through
 * `req.setResponseHeader`. See serializeCookie for the rules; a KILN082 KilnError for a broken one.
 *
 * @example
 * ```ts
 * setCookie(req, '__Host-theme', 'dark', { secure: true, maxAge: 60 * 60 * 24 * 365 });
 * ```
 */
export function setCookie(req: KilnRequest, name: string, value: string, options?: CookieOptions): void {
  req.setResponseHeader('set-cookie', serializeCookie(name, value, options));
}

/**
 * Tells the browser to drop a cookie: an empty value with `Max-Age=0`. Give the same `path` and
 * `domain` it was set with (and `secure` for a prefixed name).
 */
export function deleteCookie(
  req: KilnRequest,
  name: string,
  options: Pick<CookieOptions, 'path' | 'domain' | 'secure' | 'sameSite' | 'partitioned'> = {},
): void {
  req.setResponseHeader('set-cookie', serializeCookie(name, '', { ...options, maxAge: 0, expires: new Date(0) }));
}
