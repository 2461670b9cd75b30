import type { KilnRequest } from '../request/kiln-request.js';
import { fromBase64Url, toBase64Url } from './base64url.js';
import { checkedSecrets } from './secrets.js';
import { setCookie, type CookieOptions } from './set-cookie.js';

const encoder = new TextEncoder();

/** Signs and verifies cookie values with HMAC-SHA256 (WebCrypto: every runtime). */
export interface CookieSigner {
  /** `value.signature`, signed with the first secret. */
  sign(value: string): Promise<string>;
  /** The value of a signed text when any of the secrets signed it, else `undefined` (tampered, unsigned, an old secret dropped). */
  verify(signed: string): Promise<string | undefined>;
  /** Sets a signed cookie on the request's answer (see setCookie). */
  set(req: KilnRequest, name: string, value: string, options?: CookieOptions): Promise<void>;
  /** The verified value of a request's cookie, or `undefined` when it is missing or its signature does not hold. */
  get(req: KilnRequest, name: string): Promise<string | undefined>;
}

/**
 * A signer for cookies that the client may read but not change. `secrets` is a list, newest
 * first: values are signed with the first and accepted when any of them signed it, so a secret
 * is rotated by putting a new one first and dropping the old one once its cookies have expired.
 * Each secret has at least 32 characters (a KILN083 KilnError otherwise).
 *
 * @example
 * ```ts
 * const cookies = cookieSigner([process.env.COOKIE_SECRET!, process.env.OLD_COOKIE_SECRET!]);
 * await cookies.set(req, 'cart', cartId, { maxAge: 3600 });
 * const cart = await cookies.get(req, 'cart'); // undefined if the client changed it
 * ```
 */
export function cookieSigner(secrets: string | readonly string[]): CookieSigner {
  const list = checkedSecrets(secrets, 'cookieSigner');
  // Imported once, on first use: the module is loaded without touching WebCrypto.
  let keys: Promise<Awaited<ReturnType<typeof crypto.subtle.importKey>>[]> | undefined;
  const hmacKeys = () =>
    (keys ??= Promise.all(
      list.map((secret) =>
        crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']),
      ),
    ));

  const sign = async (value: string): Promise<string> => {
    const [key] = await hmacKeys();
    const signature = new Uint8Array(await crypto.subtle.sign('HMAC', key!, encoder.encode(value)));
    return `${value}.${toBase64Url(signature)}`;
  };
  const verify = async (signed: string): Promise<string | undefined> => {
    if (typeof signed !== 'string') return undefined;
    const dot = signed.lastIndexOf('.');
    if (dot === -1) return undefined;
    const text = signed.slice(dot + 1);
    const signature = fromBase64Url(text);
    // An HMAC-SHA256 is 32 bytes: anything else is not one of ours. Its text must be the one
    // canonical spelling (the last character's unused bits zero): one signed cookie, one text.
    if (signature === undefined || signature.length !== 32 || toBase64Url(signature) !== text) return undefined;
    const value = signed.slice(0, dot);
    const data = encoder.encode(value);
    // crypto.subtle.verify compares in constant time.
    for (const key of await hmacKeys()) if (await crypto.subtle.verify('HMAC', key, signature, data)) return value;
    return undefined;
  };
  return {
    sign,
    verify,
    async set(req, name, value, options) {
      setCookie(req, name, await sign(value), options);
    },
    async get(req, name) {
      const signed = req.cookies[name];
      return signed === undefined ? undefined : verify(signed);
    },
  };
}
