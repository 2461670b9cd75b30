import type { KilnRequest } from '@kiln/core';
import { ipv6Prefix } from './ipv6-prefix.js';
import { base64url, sha256 } from './digests.js';

/** Keys longer than this are replaced by a fixed-size hash: memory per key stays bounded whatever a key generator returns. */
export const maxKeyLength = 256;

/**
 * The rate-limit key of a client address as `req.ip` gives it (canonical): an IPv4 address as
 * is, an IPv6 address as its network under `subnet` bits (`false`: the whole address). Use it in your own `keyGenerator`
 * to group IPv6 clients the way the default key does.
 *
 * @example
 * ```ts
 * rateLimit({ keyGenerator: (req) => req.headers.get('x-api-key') ?? addressKey(req.ip ?? 'unknown') });
 * addressKey('2001:db8:1234:5678::9');      // '2001:db8:1234:5600::/56'
 * addressKey('2001:db8:1234:5678::9', 64);  // '2001:db8:1234:5678::/64'
 * ```
 */
export function addressKey(address: string, subnet: number | false = 56): string {
  if (subnet === false || !address.includes(':')) return address;
  return ipv6Prefix(address, subnet) ?? address;
}

/**
 * The default key: the client address as the server computes `req.ip` (its `trustProxy` decides
 * whether proxy headers count), IPv6 grouped by `subnet`. Only a request without any address
 * (an in-process `app.fetch` without proxy headers) falls back to a hash of `User-Agent` +
 * `Accept-Language`, so such clients do not all share one counter.
 * `socketOnly` (the deprecated `rateLimit({ trustProxy: false })`) reads the socket address only.
 */
export function defaultKeyGenerator(subnet: number | false, socketOnly: boolean): (req: KilnRequest) => string {
  return function clientKey(req: KilnRequest): string {
    // Node reports socket addresses canonically already (and Kiln unmaps IPv4-mapped ones)
    const address = socketOnly ? req.remoteAddress : req.ip;
    if (address === undefined) return headerFingerprint(req);
    // hot path: IPv4 keys are the address itself
    return subnet === false || !address.includes(':') ? address : (ipv6Prefix(address, subnet) ?? address);
  };
}

/** A key as given when short enough, else `sha256:` + its digest (so a 15 KB key costs 50 characters). */
export function boundedKey(key: string): string {
  if (key.length <= maxKeyLength) return key;
  return `sha256:${base64url(sha256(key))}`;
}

/** `fp:` + an FNV-1a hash of User-Agent and Accept-Language (no address contains `fp:`). */
export function headerFingerprint(req: KilnRequest): string {
  const text = `${req.headers.get('user-agent') ?? ''}\n${req.headers.get('accept-language') ?? ''}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return `fp:${(hash >>> 0).toString(36)}`;
}
