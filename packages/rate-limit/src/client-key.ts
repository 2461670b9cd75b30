import type { KilnRequest } from '@kiln/core';

/**
 * The default key: the first address of `X-Forwarded-For`, else `X-Real-IP`, else the socket's
 * address. Only a request without a socket (in-process `app.fetch`) falls back to a hash of
 * `User-Agent` + `Accept-Language`, so such clients do not all share one counter.
 *
 * The headers are client-controlled: trust them only behind a proxy that sets them.
 */
export function proxiedClientKey(req: KilnRequest): string {
  const forwarded = req.headers.get('x-forwarded-for');
  if (forwarded) {
    const comma = forwarded.indexOf(',');
    const first = (comma === -1 ? forwarded : forwarded.slice(0, comma)).trim();
    if (first) return first;
  }
  const realIp = req.headers.get('x-real-ip')?.trim();
  if (realIp) return realIp;
  return socketClientKey(req);
}

/** The key with `trustProxy: false`: the socket's address, proxy headers ignored. */
export function socketClientKey(req: KilnRequest): string {
  return req.remoteAddress ?? headerFingerprint(req);
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
