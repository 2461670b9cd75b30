import { isFramingHeader } from './header-rules.js';
import { optionalNodeBuiltin } from '../node-builtin.js';

// The codings fetch (undici) decodes before handing out a body; with any other coding in the
// list it decodes nothing. zstd is decoded where node:zlib has it (Node 22.15+).
const decodedCodings = new Set(['gzip', 'x-gzip', 'deflate', 'br']);
if (typeof optionalNodeBuiltin<{ createZstdDecompress?: unknown }>('node:zlib')?.createZstdDecompress === 'function')
  decodedCodings.add('zstd');

/**
 * True when `response` came from `fetch()` and its body was already decompressed, so its
 * `content-encoding` describes bytes that are no longer there. A constructed Response has type
 * `default`; a fetched one `basic` or `cors`.
 */
export function decodedByFetch(response: Response): boolean {
  if (response.type === 'default') return false;
  const encoding = response.headers.get('content-encoding');
  if (encoding === null) return false;
  return encoding.split(',').every((coding) => decodedCodings.has(coding.trim().toLowerCase()));
}

/**
 * The headers of a returned Response that Kiln sends, as a flat [name, value, ...] list: every
 * header except the connection and framing ones (hop-by-hop fields, those the `Connection`
 * header names, `content-length`), and `content-encoding` when `dropEncoding` (see decodedByFetch).
 * Kiln adds its own `content-length` or chunked framing from what it actually sends.
 */
export function sendableHeaders(response: Response, dropEncoding: boolean): string[] {
  const source = response.headers;
  const connection = source.get('connection');
  const named =
    connection === null
      ? undefined
      : connection
          .toLowerCase()
          .split(',')
          .map((name) => name.trim());
  const headers: string[] = [];
  source.forEach((value, name) => {
    if (name === 'set-cookie' || isFramingHeader(name) || named?.includes(name)) return;
    if (dropEncoding && name === 'content-encoding') return;
    headers.push(name, value);
  });
  for (const cookie of source.getSetCookie()) headers.push('set-cookie', cookie);
  return headers;
}
