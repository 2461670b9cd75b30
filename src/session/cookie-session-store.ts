import { fromBase64Url, toBase64Url } from '../cookies/base64url.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Sessions kept in the cookie itself, sealed with AES-256-GCM (WebCrypto: every runtime): the
 * client can neither read nor change them, and the server keeps nothing. The key of each of
 * `session()`'s secrets is derived with HKDF-SHA256; sealed with the first, opened with any.
 * What it cannot do that a server store can: end a session before it expires (a copy of the
 * cookie stays valid until its expiry, sealed inside), or hold more than about 3 KB of data.
 *
 * @example
 * ```ts
 * session({ secrets, store: new CookieSessionStore() });
 * ```
 */
export class CookieSessionStore {
  /** Marks the store for `session()`: the session travels in the cookie. */
  readonly sealed = true;
}

type AesKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

/** Seals and opens texts with keys derived from a list of secrets, newest first. */
export class Sealer {
  readonly #secrets: readonly string[];
  #keys: Promise<AesKey[]> | undefined;

  constructor(secrets: readonly string[]) {
    this.#secrets = secrets;
  }

  #derived(): Promise<AesKey[]> {
    return (this.#keys ??= Promise.all(
      this.#secrets.map(async (secret) => {
        const material = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey']);
        return crypto.subtle.deriveKey(
          { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: encoder.encode('kiln session seal v1') },
          material,
          { name: 'AES-GCM', length: 256 },
          false,
          ['encrypt', 'decrypt'],
        );
      }),
    ));
  }

  async seal(text: string): Promise<string> {
    const [key] = await this.#derived();
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key!, encoder.encode(text)));
    const out = new Uint8Array(iv.length + sealed.length);
    out.set(iv);
    out.set(sealed, iv.length);
    return toBase64Url(out);
  }

  /** The text, or `undefined` when no key opens it (tampered, forged, sealed with a dropped secret). */
  async open(sealed: string): Promise<string | undefined> {
    const bytes = fromBase64Url(sealed);
    // 12 bytes of IV and a 16-byte tag at the least.
    if (bytes === undefined || bytes.length < 28) return undefined;
    const iv = bytes.subarray(0, 12);
    const body = bytes.subarray(12);
    for (const key of await this.#derived()) {
      try {
        return decoder.decode(await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, key, body));
      } catch {
        /* not this key */
      }
    }
    return undefined;
  }
}
