import type * as zlib from 'node:zlib';
import type { ContentCoding } from './content-coding.js';

/** What one `compression()` middleware decided at start-up, shared by every request it sees. */
export interface CompressionSettings {
  readonly zlib: typeof zlib;
  readonly threshold: number;
  readonly filter: (contentType: string) => boolean;
  readonly gzip: zlib.ZlibOptions;
  readonly br: zlib.BrotliOptions;
  readonly zstd: Record<string, unknown>;
}

/**
 * What `compression()` records on a request: the coding its `Accept-Encoding` allows (`undefined`:
 * identity) and the settings. The response writers read it when they send the answer, so that a
 * plain returned value is compressed without a `Response` being made for it.
 */
export interface ResponseCompression {
  readonly coding: ContentCoding | undefined;
  readonly settings: CompressionSettings;
}

/**
 * What a response gets: nothing (`none`: not compressible at all, so no `Vary` either), only
 * `Vary: Accept-Encoding` (`vary`: it would be compressed for another client, or is under the
 * threshold), or compressed with a coding.
 */
export type CompressionPlan = 'none' | 'vary' | ContentCoding;

/** The first value of `name` (lower-case) in a flat [name, value, ...] header list. */
export function headerIn(headers: readonly string[], name: string): string | undefined {
  for (let i = 0; i < headers.length; i += 2) if (headers[i] === name) return headers[i + 1];
  return undefined;
}

/**
 * Whether and how an answer is compressed. Never: for HEAD, statuses without a body or with a
 * partial one (204, 304, 206), an answer already encoded, one that says `Cache-Control:
 * no-transform`, or a `Content-Type` the filter refuses. `size` is the body's byte length when it
 * is known (a smaller one than the threshold is sent as it is).
 */
export function compressionPlan(
  compression: ResponseCompression,
  method: string,
  status: number,
  headers: readonly string[],
  size: number | undefined,
): CompressionPlan {
  if (method === 'HEAD' || status === 204 || status === 304 || status === 206) return 'none';
  const encoding = headerIn(headers, 'content-encoding');
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') return 'none';
  if (headerIn(headers, 'content-range') !== undefined) return 'none';
  const cacheControl = headerIn(headers, 'cache-control');
  if (cacheControl !== undefined && /(?:^|,)\s*no-transform\s*(?:,|$)/i.test(cacheControl)) return 'none';
  const type = headerIn(headers, 'content-type');
  if (type === undefined || !compression.settings.filter(type)) return 'none';
  if (compression.coding === undefined || (size !== undefined && size < compression.settings.threshold)) return 'vary';
  return compression.coding;
}

/**
 * Adds `Accept-Encoding` to the `Vary` of a flat header list: merged into the first `Vary` value
 * (one header line, no repeated token); nothing to do when it is already there or is `*`.
 */
export function addVary(headers: string[]): void {
  for (let i = 0; i < headers.length; i += 2) {
    if (headers[i] !== 'vary') continue;
    const value = headers[i + 1]!;
    const tokens = value.split(',').map((token) => token.trim().toLowerCase());
    if (tokens.includes('*') || tokens.includes('accept-encoding')) return;
    headers[i + 1] = value.trim() === '' ? 'Accept-Encoding' : `${value}, Accept-Encoding`;
    return;
  }
  headers.push('vary', 'Accept-Encoding');
}

/**
 * The headers of a compressed answer: `Content-Encoding` added, a strong `ETag` made weak (the
 * bytes differ from the identity answer's), `Vary` merged.
 */
export function markEncoded(headers: string[], coding: ContentCoding): void {
  for (let i = 0; i < headers.length; i += 2) {
    if (headers[i] === 'etag' && headers[i + 1]!.startsWith('"')) headers[i + 1] = `W/${headers[i + 1]}`;
    // An explicit identity is replaced, not contradicted.
    if (headers[i] === 'content-encoding') headers.splice(i--, 2);
  }
  headers.push('content-encoding', coding);
  addVary(headers);
}

/** Bodies up to this size are compressed on the calling thread: cheaper than a round trip to zlib's thread pool. */
export const largestSyncBody = 128 * 1024;

/** Compresses a whole body on the calling thread. */
export function compressNow(settings: CompressionSettings, coding: ContentCoding, body: string | Uint8Array): Uint8Array {
  const z = settings.zlib;
  if (coding === 'gzip') return z.gzipSync(body, settings.gzip);
  if (coding === 'br') return z.brotliCompressSync(body, settings.br);
  return (z as unknown as { zstdCompressSync(body: string | Uint8Array, options: unknown): Uint8Array }).zstdCompressSync(
    body,
    settings.zstd,
  );
}

/** Compresses a whole body on zlib's thread pool, for bodies too large to hold the event loop. */
export function compressLater(settings: CompressionSettings, coding: ContentCoding, body: string | Uint8Array): Promise<Uint8Array> {
  const z = settings.zlib as unknown as Record<
    string,
    (body: unknown, options: unknown, done: (error: Error | null, out: Uint8Array) => void) => void
  >;
  const method = coding === 'gzip' ? 'gzip' : coding === 'br' ? 'brotliCompress' : 'zstdCompress';
  const options = coding === 'gzip' ? settings.gzip : coding === 'br' ? settings.br : settings.zstd;
  return new Promise((resolve, reject) => z[method]!(body, options, (error, out) => (error ? reject(error) : resolve(out))));
}

/** A streaming compressor whose every write is flushed, so each chunk of the source leaves as soon as it is compressed. */
function flushingCompressor(settings: CompressionSettings, coding: ContentCoding): zlib.Gzip | zlib.BrotliCompress {
  const z = settings.zlib;
  if (coding === 'gzip') return z.createGzip({ ...settings.gzip, flush: z.constants.Z_SYNC_FLUSH });
  if (coding === 'br') return z.createBrotliCompress({ ...settings.br, flush: z.constants.BROTLI_OPERATION_FLUSH });
  const constants = z.constants as unknown as Record<string, number>;
  return (z as unknown as { createZstdCompress(options: unknown): zlib.Gzip }).createZstdCompress({
    ...settings.zstd,
    flush: constants['ZSTD_e_flush'],
  });
}

/**
 * A body stream compressed chunk by chunk: every chunk of the source is compressed and flushed
 * before the next is read, so a stream stays a stream (server-sent events arrive event by event).
 * Cancelling the result (the client went away) cancels the source and frees the compressor.
 */
export function compressStream(
  settings: CompressionSettings,
  coding: ContentCoding,
  source: ReadableStream<unknown>,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  const compressor = flushingCompressor(settings, coding);
  let failed: Error | undefined;
  compressor.on('error', (error) => {
    failed = error;
  });
  const pending: Uint8Array[] = [];
  compressor.on('data', (chunk: Uint8Array) => pending.push(chunk));
  const written = (chunk: Uint8Array) =>
    new Promise<void>((resolve, reject) => compressor.write(chunk, (error) => (error ? reject(error) : resolve())));
  const ended = () =>
    new Promise<void>((resolve, reject) => {
      compressor.once('end', resolve);
      compressor.once('error', reject);
      compressor.end();
    });
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      // One source chunk per pull; a chunk that compresses to nothing yet is followed by the next.
      while (pending.length === 0) {
        const next = await reader.read();
        if (next.done) {
          await ended();
          for (const chunk of pending.splice(0)) controller.enqueue(chunk);
          controller.close();
          return;
        }
        const value = next.value;
        const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value;
        if (!(bytes instanceof Uint8Array)) throw new TypeError('A Response body stream must yield Uint8Array chunks');
        if (bytes.byteLength === 0) continue;
        await written(bytes);
        if (failed !== undefined) throw failed;
      }
      for (const chunk of pending.splice(0)) controller.enqueue(chunk);
    },
    cancel(reason) {
      compressor.destroy();
      return reader.cancel(reason);
    },
  });
}
