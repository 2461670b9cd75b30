import type * as zlib from 'node:zlib';
import { checkCompressionOptions, isCompressibleType, type CompressionOptions } from '../compression/compression-options.js';
import { negotiateCoding, type ContentCoding } from '../compression/content-coding.js';
import type { CompressionSettings, ResponseCompression } from '../compression/response-compression.js';
import type { MiddlewareFunction } from '../middleware.js';
import type { RequestCore } from '../request/kiln-request.js';
import { nodeBuiltin } from '../node-builtin.js';
import { kCompression } from '../symbols.js';

/**
 * Compresses answers with Brotli, zstd or gzip (`node:zlib`), as the request's `Accept-Encoding`
 * allows (q-values, `q=0` refusals, `*` and `identity`). Plain returned values, errors, returned
 * `Response`s and streams are all compressed when they are sent, after every middleware: the
 * middleware itself only records the negotiated coding, so it creates no `Response` and never
 * buffers a stream (a streamed body is compressed and flushed chunk by chunk).
 *
 * Left as they are: answers to HEAD, 204, 304 and 206, answers that already have a
 * `Content-Encoding` or say `Cache-Control: no-transform`, media types the `filter` refuses
 * (images, archives...), and bodies of a known size under `threshold`. Every compressible answer
 * gets `Vary: Accept-Encoding`, merged into its own `Vary`.
 *
 * @example
 * ```ts
 * createServer({ controllers, middlewares: [cors(), compression({ threshold: 1024 })] });
 * ```
 */
export function compression(options: CompressionOptions = {}): MiddlewareFunction {
  const z = nodeBuiltin<typeof zlib>('node:zlib', 'compression()', 'KILN012');
  const zstdAvailable = typeof (z as { createZstdCompress?: unknown }).createZstdCompress === 'function';
  const preferred = checkCompressionOptions(options, zstdAvailable);
  const constants = z.constants as typeof z.constants & Record<string, number>;
  const settings: CompressionSettings = Object.freeze({
    zlib: z,
    threshold: options.threshold ?? 1024,
    filter: options.filter ?? isCompressibleType,
    gzip: { level: options.gzipLevel ?? 6 },
    br: { params: { [constants.BROTLI_PARAM_QUALITY]: options.brotliQuality ?? 4 } },
    zstd: zstdAvailable ? { params: { [constants['ZSTD_c_compressionLevel']!]: options.zstdLevel ?? 3 } } : {},
  });
  // One frozen record per outcome, shared by every request: recording costs no allocation.
  const records = new Map<ContentCoding | undefined, ResponseCompression>();
  for (const coding of [undefined, ...preferred]) records.set(coding, Object.freeze({ coding, settings }));

  // hot path: one header read and a cached negotiation; the chain goes on at once
  return (req) => {
    (req as RequestCore)[kCompression] = records.get(negotiateCoding(req.headers.get('accept-encoding'), preferred));
    return undefined;
  };
}
