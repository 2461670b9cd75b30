// SHA-256 and SHA-1 (FIPS 180-4) in plain JavaScript, synchronous: the limiter hashes an over-long
// key on the request's path, where WebCrypto's `digest` (a promise) would cost a turn, and names
// its Redis scripts by their SHA-1 (EVALSHA) when its modules load; `node:crypto` would tie the
// package to Node's modules (a Workers bundle could not resolve it).

const roundConstants = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be,
  0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa,
  0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85,
  0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
  0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
  0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

/** `text`'s UTF-8 bytes, a 1 bit, zeros, and the length in bits as 64 bits: whole 64-byte blocks. */
function padded(text: string): DataView {
  const data = new TextEncoder().encode(text);
  const bytes = new Uint8Array(Math.ceil((data.length + 9) / 64) * 64);
  bytes.set(data);
  bytes[data.length] = 0x80;
  const view = new DataView(bytes.buffer);
  view.setUint32(bytes.length - 8, Math.floor(data.length / 0x20000000));
  view.setUint32(bytes.length - 4, (data.length * 8) >>> 0);
  return view;
}

/** The big-endian bytes of 32-bit words. */
function wordBytes(words: Uint32Array): Uint8Array {
  const digest = new Uint8Array(words.length * 4);
  const out = new DataView(digest.buffer);
  for (let i = 0; i < words.length; i++) out.setUint32(i * 4, words[i]!);
  return digest;
}

/** The SHA-1 digest of `text`'s UTF-8 bytes, as Redis names a script (40 hex digits). */
export function sha1Hex(text: string): string {
  const view = padded(text);
  const hash = new Uint32Array([0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0]);
  const w = new Uint32Array(80);
  for (let offset = 0; offset < view.byteLength; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4);
    for (let i = 16; i < 80; i++) w[i] = rotr(w[i - 3]! ^ w[i - 8]! ^ w[i - 14]! ^ w[i - 16]!, 31);
    let [a, b, c, d, e] = hash as unknown as number[];
    for (let i = 0; i < 80; i++) {
      const [f, k] =
        i < 20
          ? [(b! & c!) | (~b! & d!), 0x5a827999]
          : i < 40
            ? [b! ^ c! ^ d!, 0x6ed9eba1]
            : i < 60
              ? [(b! & c!) | (b! & d!) | (c! & d!), 0x8f1bbcdc]
              : [b! ^ c! ^ d!, 0xca62c1d6];
      const t = (rotr(a!, 27) + f + e! + k + w[i]!) >>> 0;
      e = d;
      d = c;
      c = rotr(b!, 2) >>> 0;
      b = a;
      a = t;
    }
    hash[0]! += a!;
    hash[1]! += b!;
    hash[2]! += c!;
    hash[3]! += d!;
    hash[4]! += e!;
  }
  return [...wordBytes(hash)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The SHA-256 digest of `text`'s UTF-8 bytes. */
export function sha256(text: string): Uint8Array {
  const view = padded(text);
  const blocks = view.byteLength / 64;
  const hash = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  for (let block = 0; block < blocks; block++) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(block * 64 + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15]!, 7) ^ rotr(w[i - 15]!, 18) ^ (w[i - 15]! >>> 3);
      const s1 = rotr(w[i - 2]!, 17) ^ rotr(w[i - 2]!, 19) ^ (w[i - 2]! >>> 10);
      w[i] = w[i - 16]! + s0 + w[i - 7]! + s1;
    }
    let [a, b, c, d, e, f, g, h] = hash as unknown as number[];
    for (let i = 0; i < 64; i++) {
      const t1 = (h! + (rotr(e!, 6) ^ rotr(e!, 11) ^ rotr(e!, 25)) + ((e! & f!) ^ (~e! & g!)) + roundConstants[i]! + w[i]!) >>> 0;
      const t2 = ((rotr(a!, 2) ^ rotr(a!, 13) ^ rotr(a!, 22)) + ((a! & b!) ^ (a! & c!) ^ (b! & c!))) >>> 0;
      h = g;
      g = f;
      f = e;
      e = (d! + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    hash[0]! += a!;
    hash[1]! += b!;
    hash[2]! += c!;
    hash[3]! += d!;
    hash[4]! += e!;
    hash[5]! += f!;
    hash[6]! += g!;
    hash[7]! += h!;
  }
  return wordBytes(hash);
}

/** Bytes as base64url without padding, as `Buffer`'s `'base64url'` writes them. */
export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
