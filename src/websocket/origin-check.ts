// The origin check of a `@WebSocket` route: the first step of its chain, so that a handshake from
// a page of another origin is refused (403) before any middleware, guard or session runs with the
// cookies the browser sent along. A handshake without `Origin` comes from a client that is not a
// browser (curl, `ws` in Node, another server), which holds no user's cookies unless given them:
// it passes, as do plain GETs of the route (answered 426 further on).
import { HttpError } from '../http-error.js';
import { isPromiseLike } from '../is-promise-like.js';
import { kilnError } from '../kiln-error.js';
import type { MiddlewareFunction } from '../middleware.js';
import { fromTrustedProxy, type ProxyTrust } from '../request/client-address.js';
import type { KilnRequest } from '../request/kiln-request.js';
import { matchesOrigin } from '../security/origin-rules.js';
import type { OriginPolicy } from './allowed-origins.js';
import { isUpgrading } from './upgradable-requests.js';

/** Characters a host (with its port) never holds: anything that would make it more than a host. */
const notAHost = /[\s/?#@\\]/;

function firstEntry(value: string | null): string | undefined {
  if (value === null) return undefined;
  const comma = value.indexOf(',');
  const entry = (comma === -1 ? value : value.slice(0, comma)).trim();
  return entry === '' ? undefined : entry;
}

/** `X-Forwarded-Proto` as a scheme (a proxy may say `wss` for a WebSocket), or undefined. */
function forwardedScheme(value: string | undefined): 'http' | 'https' | undefined {
  const scheme = value?.toLowerCase();
  if (scheme === 'https' || scheme === 'wss') return 'https';
  if (scheme === 'http' || scheme === 'ws') return 'http';
  return undefined;
}

/**
 * The request's own origin, serialised as a browser writes `Origin` (lower case, no default
 * port): the scheme the server was reached by and the `Host` header, or, when a proxy the
 * server's `trustProxy` believes sent it, `X-Forwarded-Proto` and `X-Forwarded-Host` (each's
 * first entry) in their place. Undefined when the host is missing or is not a host.
 */
export function ownOrigin(req: KilnRequest, trust: ProxyTrust): string | undefined {
  let scheme: 'http' | 'https' = req.protocol;
  let host = req.headers.get('host') ?? undefined;
  if (fromTrustedProxy(trust, req.remoteAddress)) {
    scheme = forwardedScheme(firstEntry(req.headers.get('x-forwarded-proto'))) ?? scheme;
    host = firstEntry(req.headers.get('x-forwarded-host')) ?? host;
  }
  if (host === undefined || host === '' || notAHost.test(host)) return undefined;
  try {
    return new URL(`${scheme}://${host}`).origin;
  } catch {
    return undefined;
  }
}

/** The origin as the refusal names it: a header of any length is cut short. */
function shown(origin: string): string {
  return origin.length > 100 ? `${origin.slice(0, 100)}…` : origin;
}

function refused(origin: string): HttpError {
  return new HttpError(403, `Origin ${shown(origin)} is not allowed for this WebSocket route`);
}

/** The first middleware of a `@WebSocket` route (see the file's comment). */
export function originCheck(policy: OriginPolicy, trust: ProxyTrust): MiddlewareFunction {
  const { any, allowNull, rules, decide, where } = policy;
  const verdict = (origin: string, allowed: unknown): undefined => {
    if (allowed === true) return undefined;
    if (allowed === false) throw refused(origin);
    throw kilnError('KILN098', 'notBoolean', where, allowed === null ? 'null' : typeof allowed);
  };
  return function webSocketOriginCheck(req) {
    if (!isUpgrading(req)) return undefined;
    const origin = req.headers.get('origin');
    if (origin === null) return undefined;
    // Sandboxed frames and file: pages send "null": no rule but the string 'null' names it.
    if (origin === 'null') {
      if (allowNull) return undefined;
      throw refused(origin);
    }
    if (any || origin === ownOrigin(req, trust) || matchesOrigin(rules, origin)) return undefined;
    if (decide === undefined) throw refused(origin);
    const allowed = decide(origin, req);
    return isPromiseLike(allowed) ? Promise.resolve(allowed).then((value) => verdict(origin, value)) : verdict(origin, allowed);
  };
}
