// base64url without Buffer, for every runtime (workerd has no Buffer without nodejs_compat).

export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const base64UrlText = /^[A-Za-z0-9_-]*$/;

/** The bytes of a base64url text, or `undefined` when it is not one. */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!base64UrlText.test(text) || text.length % 4 === 1) return undefined;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** `size` random bytes as base64url: session ids and CSRF tokens. */
export function randomToken(size = 32): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(size)));
}
