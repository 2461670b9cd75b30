import { HttpError } from '../http-error.js';
import { kilnError } from '../kiln-error.js';
import type { MiddlewareFunction } from '../middleware.js';
import type { KilnRequest } from '../request/kiln-request.js';
import { randomToken } from '../cookies/base64url.js';
import { setCookie } from '../cookies/set-cookie.js';

/** How `csrf()` decides. */
export interface CsrfOptions {
  /**
   * Origins allowed to send unsafe requests although they are not this one (`'https://app.example'`:
   * scheme, host and port, no path). Default none.
   */
  readonly trustedOrigins?: readonly string[];
  /**
   * Also allow requests the browser marks `Sec-Fetch-Site: same-site` (another subdomain of the
   * same site). Default `false`: only same-origin requests, as Go's `CrossOriginProtection`.
   */
  readonly allowSameSite?: boolean;
  /**
   * The double-submit token, for requests that carry neither `Sec-Fetch-Site` nor `Origin` (old
   * browsers, and clients that are not browsers). Off by default: such requests pass, as they do
   * in Go and Hono. On, they must send the token of the `csrf` cookie again in the `X-CSRF-Token`
   * header or a `_csrf` form field; `csrfToken(req)` gives a page the token to embed.
   */
  readonly doubleSubmit?: boolean | { readonly header?: string; readonly field?: string; readonly cookie?: string };
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);
const kCsrfToken = Symbol('kiln.csrfToken');

interface TokenPlan {
  readonly header: string;
  readonly field: string;
  /** The cookie's name for a request: `__Host-` prefixed over HTTPS. */
  cookie(req: KilnRequest): string;
}

type WithToken = KilnRequest & { [kCsrfToken]?: TokenPlan };

function checkedOrigins(origins: unknown): ReadonlySet<string> {
  if (origins === undefined) return new Set();
  if (!Array.isArray(origins)) throw kilnError('KILN081', 'trustedOrigins');
  return new Set(
    origins.map((origin) => {
      let url: URL;
      try {
        url = new URL(String(origin));
      } catch {
        throw kilnError('KILN081', 'notAnOrigin', origin);
      }
      if (url.origin !== origin) throw kilnError('KILN081', 'originAlone', origin, url.origin);
      return url.origin;
    }),
  );
}

function tokenPlan(option: CsrfOptions['doubleSubmit']): TokenPlan | undefined {
  if (option === undefined || option === false) return undefined;
  const given = option === true ? {} : option;
  if (given === null || typeof given !== 'object') throw kilnError('KILN081', 'doubleSubmit');
  const header = given.header ?? 'x-csrf-token';
  const field = given.field ?? '_csrf';
  const named = given.cookie;
  if (named !== undefined && (typeof named !== 'string' || named === '')) throw kilnError('KILN081', 'doubleSubmitCookie');
  return {
    header,
    field,
    cookie: (req) => named ?? (req.protocol === 'https' ? '__Host-csrf' : 'csrf'),
  };
}

/** Compares two strings in time that does not depend on where they differ. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

function hostOf(req: KilnRequest): string {
  return req.headers.get('host') ?? new URL(req.url).host;
}

async function submittedToken(req: KilnRequest, plan: TokenPlan): Promise<string | undefined> {
  const header = req.headers.get(plan.header);
  if (header !== null) return header;
  const type = req.headers.get('content-type') ?? '';
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type)) return undefined;
  const body = await req.parseBody();
  const value = body instanceof FormData ? body.get(plan.field) : (body as Record<string, unknown> | undefined)?.[plan.field];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The CSRF token of the request's `csrf` cookie, set (with a new random token) when the request
 * has none: what a page embeds in its forms (`<input type="hidden" name="_csrf">`) or its script
 * sends as `X-CSRF-Token`. Needs `csrf({ doubleSubmit: true })` on the route (KILN081 otherwise).
 */
export function csrfToken(req: KilnRequest): string {
  const plan = (req as WithToken)[kCsrfToken];
  if (plan === undefined) throw kilnError('KILN081', 'noToken');
  const name = plan.cookie(req);
  const current = req.cookies[name];
  if (current !== undefined && current.length >= 32) return current;
  const token = randomToken();
  // Not HttpOnly: a page's script reads it to send it back in the header.
  setCookie(req, name, token, { httpOnly: false, secure: req.protocol === 'https', sameSite: 'strict' });
  Object.defineProperty(req.cookies, name, { value: token, enumerable: true, configurable: true });
  return token;
}

/**
 * Cross-site request forgery defence for routes authenticated by cookies (sessions). Safe methods
 * (GET, HEAD, OPTIONS) pass untouched. Any other request passes when the browser says it is
 * same-origin (`Sec-Fetch-Site: same-origin` or `none`), or, from a browser that does not send
 * `Sec-Fetch-Site`, when its `Origin` is this host; a cross-origin one is refused 403 unless its
 * origin is in `trustedOrigins`. A request with neither header passes, or with `doubleSubmit` must
 * carry the `csrf` cookie's token in `X-CSRF-Token` or a `_csrf` form field.
 *
 * @example
 * ```ts
 * @Controller('/account', session({ store, secrets }), csrf({ trustedOrigins: ['https://app.example'] }))
 * class AccountController { ... }
 * ```
 */
export function csrf(options: CsrfOptions = {}): MiddlewareFunction {
  if (options === null || typeof options !== 'object') throw kilnError('KILN081', 'options');
  const trusted = checkedOrigins(options.trustedOrigins);
  const allowSameSite = options.allowSameSite === true;
  const plan = tokenPlan(options.doubleSubmit);

  const checkToken = async (req: KilnRequest, name: string) => {
    const expected = req.cookies[name];
    const sent = await submittedToken(req, plan!);
    if (expected === undefined || expected.length < 32 || sent === undefined || !sameText(sent, expected))
      throw new HttpError(403, 'Cross-site request refused: the CSRF token is missing or does not match its cookie');
  };

  return function csrfMiddleware(req: KilnRequest) {
    if (plan !== undefined) (req as WithToken)[kCsrfToken] = plan;
    if (safeMethods.has(req.method)) return undefined;
    const origin = req.headers.get('origin');
    const site = req.headers.get('sec-fetch-site');
    if (site !== null) {
      if (site === 'same-origin' || site === 'none' || (allowSameSite && site === 'same-site')) return undefined;
      if (origin !== null && trusted.has(origin)) return undefined;
      throw new HttpError(403, `Cross-site request refused (Sec-Fetch-Site: ${site.slice(0, 20)})`);
    }
    if (origin !== null) {
      let host: string | undefined;
      try {
        host = origin === 'null' ? undefined : new URL(origin).host;
      } catch {
        host = undefined;
      }
      if (host !== undefined && host === hostOf(req)) return undefined;
      if (trusted.has(origin)) return undefined;
      throw new HttpError(403, 'Cross-site request refused: its Origin is not this host');
    }
    return plan === undefined ? undefined : checkToken(req, plan.cookie(req));
  };
}
