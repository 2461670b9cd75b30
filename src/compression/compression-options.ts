import { kilnError } from '../kiln-error.js';
import type { ContentCoding } from './content-coding.js';

/** What `compression(options)` takes. Every key has a default. */
export interface CompressionOptions {
  /**
   * Codings to offer, in the server's order of preference (used between codings the client
   * weights equally). Default `['zstd', 'br', 'gzip']` (zstd: about half Brotli's CPU for a
   * similar size on JSON); `zstd` is left out where `node:zlib`
   * has no zstd (before Node 22.15 and 23.8).
   */
  encodings?: readonly ContentCoding[];
  /** Bodies of a known size smaller than this many bytes are sent as they are. Default 1024. */
  threshold?: number;
  /**
   * Which `Content-Type`s are compressed. Default: text, JSON, XML, JavaScript, SVG, forms and
   * server-sent events (`text/event-stream`, flushed event by event).
   */
  filter?: (contentType: string) => boolean;
  /** gzip level, 1 (fastest) to 9 (smallest). Default 6, zlib's own. */
  gzipLevel?: number;
  /** Brotli quality, 0 to 11. Default 4: 11 (Brotli's default) costs ~20× the CPU for a few % on dynamic answers. */
  brotliQuality?: number;
  /** zstd level, 1 to 19. Default 3, zstd's own. */
  zstdLevel?: number;
}

const knownCodings: readonly ContentCoding[] = ['zstd', 'br', 'gzip'];

// Types that are text or text-like; images, audio, video, archives and fonts are compressed already.
const compressibleType =
  /^(?:text\/|application\/(?:json|javascript|ecmascript|xml|x-www-form-urlencoded|graphql|x-ndjson|ld\+json|manifest\+json|wasm)|image\/svg\+xml|[^;]+\+(?:json|xml)\b)/i;

/** The default `filter`: text and text-like media types. */
export function isCompressibleType(contentType: string): boolean {
  return compressibleType.test(contentType);
}

function levelOption(name: string, value: unknown, least: number, most: number): void {
  if (value !== undefined && (!Number.isInteger(value) || (value as number) < least || (value as number) > most))
    throw kilnError('KILN012', 'wholeNumber', name, least, most, value);
}

/** Refuses, at start-up, options that would fail or silently do nothing per request. */
export function checkCompressionOptions(options: CompressionOptions, zstdAvailable: boolean): readonly ContentCoding[] {
  if (options === null || typeof options !== 'object') throw kilnError('KILN012', 'options');
  const threshold = options.threshold;
  if (threshold !== undefined && (!Number.isInteger(threshold) || threshold < 0)) throw kilnError('KILN012', 'threshold', threshold);
  if (options.filter !== undefined && typeof options.filter !== 'function') throw kilnError('KILN012', 'filter');
  levelOption('gzipLevel', options.gzipLevel, 1, 9);
  levelOption('brotliQuality', options.brotliQuality, 0, 11);
  levelOption('zstdLevel', options.zstdLevel, 1, 19);
  if (options.encodings === undefined) return knownCodings.filter((coding) => coding !== 'zstd' || zstdAvailable);
  if (!Array.isArray(options.encodings) || options.encodings.length === 0) throw kilnError('KILN012', 'encodings');
  for (const coding of options.encodings) {
    if (!knownCodings.includes(coding)) throw kilnError('KILN012', 'unknownEncoding', coding);
    if (coding === 'zstd' && !zstdAvailable)
      throw kilnError('KILN012', 'noZstd', typeof process === 'undefined' ? '?' : process.versions.node);
  }
  return [...new Set(options.encodings)];
}
