import { fromTrustedProxy, type ProxyTrust } from './client-address.js';

/**
 * What an `X-Request-Id` a proxy sent may look like to be kept: 1 to 128 visible ASCII
 * characters. Anything else (spaces, control characters, a megabyte) gets a new id, so the id
 * is always safe to echo in a header and to write in a log line.
 */
const acceptedId = /^[\x21-\x7e]{1,128}$/;

/**
 * `req.id`: the `X-Request-Id` header when the request comes through a trusted proxy (the
 * `trustProxy` rule of `req.ip`) and the value is a plausible id, else a new random UUID.
 */
export function requestId(trust: ProxyTrust, header: string | null, socketAddress: string | undefined): string {
  if (header !== null && acceptedId.test(header) && fromTrustedProxy(trust, socketAddress)) return header;
  return crypto.randomUUID();
}
