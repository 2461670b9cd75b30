import { kilnError } from '../kiln-error.js';

/**
 * Limits of `multipart/form-data` bodies (file uploads), set once on `createServer({ uploads })`.
 * Past any of them the request answers 413 with the JSON error body, and nothing more is read.
 */
export interface UploadOptions {
  /** Largest file, in bytes. Default 10 MiB. */
  maxFileSize?: number;
  /** Most files in one body. Default 10. */
  maxFiles?: number;
  /** Most non-file fields in one body. Default 100. */
  maxFields?: number;
  /** Largest non-file field value, in bytes. Default 64 KiB. */
  maxFieldSize?: number;
  /** Largest whole multipart body, in bytes (it replaces `maxBodySize` for multipart bodies). Default 20 MiB. */
  maxTotalSize?: number;
  /**
   * Files up to this many bytes stay in memory; larger ones are streamed to a temporary file
   * (`tmpDir`) as they arrive. Default 64 KiB.
   */
  memoryFileSize?: number;
  /** Folder for temporary files. Default: the operating system's (`os.tmpdir()`). */
  tmpDir?: string;
}

/** Upload limits with every default filled in. */
export type UploadLimits = Readonly<Required<Omit<UploadOptions, 'tmpDir'>>> & { readonly tmpDir: string | undefined };

const defaults = {
  maxFileSize: 10 * 1024 * 1024,
  maxFiles: 10,
  maxFields: 100,
  maxFieldSize: 64 * 1024,
  maxTotalSize: 20 * 1024 * 1024,
  memoryFileSize: 64 * 1024,
} as const;

/** The `uploads` option of createServer, checked at start-up (KILN007). */
export function uploadLimits(options: UploadOptions | undefined): UploadLimits {
  if (options !== undefined && (options === null || typeof options !== 'object')) throw kilnError('KILN007', 'uploads');
  const limits: Record<string, unknown> = { ...defaults };
  for (const name of Object.keys(defaults) as (keyof typeof defaults)[]) {
    const value = options?.[name];
    if (value === undefined) continue;
    if (!Number.isInteger(value) || value < 0) throw kilnError('KILN007', 'uploadsLimit', name, value);
    limits[name] = value;
  }
  if (options?.tmpDir !== undefined && (typeof options.tmpDir !== 'string' || options.tmpDir === ''))
    throw kilnError('KILN007', 'uploadsTmpDir');
  limits['tmpDir'] = options?.tmpDir;
  return Object.freeze(limits) as UploadLimits;
}
