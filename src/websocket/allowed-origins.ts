// Which browser origins may open a WebSocket (`allowedOrigins`), checked once at start-up. Browsers
// apply neither CORS nor the same-origin policy to a WebSocket handshake and send the user's
// cookies with it: without this check any page could open a socket as the user (cross-site
// WebSocket hijacking). Strings, RegExps and lists match as `cors({ origin })`'s do.
import { kilnError } from '../kiln-error.js';
import type { KilnRequest } from '../request/kiln-request.js';
import { isOriginItem, ownOriginRules, type OriginRules } from '../security/origin-rules.js';

/**
 * Origins allowed to open a WebSocket besides the server's own, which always may: an origin
 * (`'https://app.example.com'`), a RegExp tested against the whole `Origin` header, a list of
 * them (`[]`: the server's own origin only), a function deciding each other origin, or `'*'` /
 * `true` for any origin (unsafe for a route that authenticates by cookie). The origin `null`
 * (sandboxed frames, `file:` pages) is refused unless a string `'null'` names it.
 *
 * @example
 * ```ts
 * createServer({ controllers, webSocket: { allowedOrigins: ['https://app.example.com', /^https:\/\/[a-z]+\.example\.com$/] } });
 * ```
 */
export type AllowedOrigins =
  | true
  | string
  | RegExp
  | readonly (string | RegExp)[]
  | ((origin: string, req: KilnRequest) => boolean | Promise<boolean>);

/** `allowedOrigins` checked and compiled: what the origin check of a route decides with. */
export interface OriginPolicy {
  /** `'*'` or `true`: every origin but `null`. */
  readonly any: boolean;
  /** A string `'null'` names the opaque origin. */
  readonly allowNull: boolean;
  readonly rules: OriginRules;
  readonly decide: ((origin: string, req: KilnRequest) => boolean | Promise<boolean>) | undefined;
  /** Where the option was given, for the messages of a function's bad answer. */
  readonly where: string;
}

/** The default: the server's own origin only. */
export const sameOriginOnly: OriginPolicy = Object.freeze({
  any: false,
  allowNull: false,
  rules: [],
  decide: undefined,
  where: 'allowedOrigins',
});

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list holding something other than strings and RegExps';
  return typeof value === 'string' ? JSON.stringify(value) : typeof value;
}

/** A string entry: `'*'`, `'null'`, or exactly a serialised origin (what browsers send). */
function checkedString(where: string, value: string): string {
  if (value === '*' || value === 'null') return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw kilnError('KILN097', 'notAnOrigin', where, value);
  }
  if (url.origin === 'null' || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw kilnError('KILN097', 'notAnOrigin', where, value);
  if (url.origin !== value) throw kilnError('KILN097', 'originAlone', where, value, url.origin);
  return value;
}

/**
 * Checks `allowedOrigins` (KILN097 names where it was given and what is wrong) and compiles it;
 * `undefined` is the default, the server's own origin only.
 */
export function originPolicy(value: unknown, where: string): OriginPolicy {
  if (value === undefined) return sameOriginOnly;
  if (value === true) return Object.freeze({ ...sameOriginOnly, any: true, where });
  if (typeof value === 'function') {
    return Object.freeze({ ...sameOriginOnly, decide: value as OriginPolicy['decide'], where });
  }
  const items = typeof value === 'string' || value instanceof RegExp ? [value] : value;
  if (!Array.isArray(items) || !items.every(isOriginItem)) throw kilnError('KILN097', 'kind', where, kindOf(value));
  const strings = items.filter((item): item is string => typeof item === 'string').map((item) => checkedString(where, item));
  return Object.freeze({
    any: strings.includes('*'),
    allowNull: strings.includes('null'),
    rules: ownOriginRules(items.filter((item) => item !== '*' && item !== 'null')),
    decide: undefined,
    where,
  });
}
