import type * as fsModule from 'node:fs';
import type * as osModule from 'node:os';
import type * as pathModule from 'node:path';
import type { BusboyConstructor, BusboyFileStream, BusboyInstance } from '@fastify/busboy';
import { HttpError } from '../http-error.js';
import { kilnError } from '../kiln-error.js';
import { nodeBuiltin } from '../node-builtin.js';
import type { UploadLimits } from './upload-options.js';
import { partsForm, uploadedFile } from './upload-form.js';

let busboy: Promise<BusboyConstructor> | undefined;

/**
 * `@fastify/busboy`, an optional peer dependency: imported on the first multipart body, so that an
 * app without uploads needs neither it nor the `node:` modules it uses. A literal `import()`, so
 * that a bundler follows it and puts it in the bundle (`@kiln/core/esbuild` leaves it out of a
 * bundle for a runtime without `node:fs`, and out of one whose project does not install it).
 */
function loadBusboy(): Promise<BusboyConstructor> {
  busboy ??= import('@fastify/busboy').then(
    (loaded) => {
      const module = loaded as unknown as { Busboy?: BusboyConstructor; default?: BusboyConstructor & { Busboy?: BusboyConstructor } };
      const parser = module.Busboy ?? module.default?.Busboy ?? module.default;
      if (typeof parser !== 'function') throw new TypeError('@fastify/busboy exports no Busboy class');
      return parser;
    },
    (error: unknown) => {
      busboy = undefined; // installed later (a development server): tried again on the next upload
      const failure = kilnError('KILN013', 'noBusboy', (error as Error)?.message ?? error);
      failure.cause = error;
      throw failure;
    },
  );
  return busboy;
}

function tooLarge(what: string): HttpError {
  return new HttpError(413, what);
}

function malformed(detail: string): HttpError {
  return new HttpError(400, `Malformed multipart/form-data body: ${detail}`);
}

/**
 * What a failed write to the upload folder means once the folder was removed: the request is over
 * (answered, or the client gone), so the write failed because nobody wants the body any more, not
 * because the server is at fault. A client error, so that it is never reported as a bug.
 */
function requestOver(): HttpError {
  return new HttpError(400, 'The request ended before its multipart body was read');
}

/**
 * The temporary files of one request's uploads: one folder made on the first file that outgrows
 * memory, removed whole by `remove()`, which runs once the answer is sent or the client is gone
 * (and at once if the body fails). A file spilled after `remove()` is removed as soon as it exists.
 */
export class UploadFolder {
  #path: Promise<string> | undefined;
  #removed = false;
  readonly #streams = new Set<fsModule.WriteStream>();

  constructor(readonly tmpDir: string | undefined) {}

  get removed(): boolean {
    return this.#removed;
  }

  /** A new file in the folder, open for writing. */
  async create(fs: typeof fsModule, path: typeof pathModule, index: number): Promise<{ file: string; stream: fsModule.WriteStream }> {
    const os = nodeBuiltin<typeof osModule>('node:os', 'multipart/form-data', 'KILN013');
    this.#path ??= fs.promises.mkdtemp(path.join(this.tmpDir ?? os.tmpdir(), 'kiln-upload-'));
    const folder = await this.#path;
    if (this.#removed) throw new Error('The upload folder was removed');
    const file = path.join(folder, `file-${index}`);
    const stream = fs.createWriteStream(file);
    this.#streams.add(stream);
    stream.once('close', () => this.#streams.delete(stream));
    return { file, stream };
  }

  /** Removes every temporary file of the request. Never rejects; safe to call more than once. */
  async remove(): Promise<void> {
    if (this.#removed) return;
    this.#removed = true;
    for (const stream of this.#streams) stream.destroy();
    if (this.#path === undefined) return;
    try {
      const folder = await this.#path;
      const fs = nodeBuiltin<typeof fsModule>('node:fs', 'multipart/form-data', 'KILN013');
      await fs.promises.rm(folder, { recursive: true, force: true });
    } catch {
      // The folder was never made (mkdtemp failed), or is gone already.
    }
  }
}

/**
 * A file part as it arrives: in memory while small, then in a temporary file. Past maxFileSize
 * it calls `stop` at once, mid-part: the body is read no further.
 */
async function receiveFile(
  stream: BusboyFileStream,
  field: string,
  name: string,
  type: string,
  limits: UploadLimits,
  folder: UploadFolder,
  index: number,
  stop: (error: unknown) => void,
): Promise<File> {
  const fs = nodeBuiltin<typeof fsModule>('node:fs', 'multipart/form-data', 'KILN013');
  const path = nodeBuiltin<typeof pathModule>('node:path', 'multipart/form-data', 'KILN013');
  const chunks: Buffer[] = [];
  let held = 0;
  let size = 0;
  let spilled: { file: string; stream: fsModule.WriteStream } | undefined;
  let spilling: Promise<void> | undefined;
  let failure: unknown;
  await new Promise<void>((resolve, reject) => {
    const fail = (error: unknown) => {
      if (failure !== undefined) return;
      failure = error;
      stream.resume();
      stop(error);
      reject(error);
    };
    // The folder's files are destroyed under their writers when the request ends (ERR_STREAM_DESTROYED).
    const failToWrite = (error: unknown) => fail(folder.removed ? requestOver() : error);
    stream.on('data', (chunk: Buffer) => {
      if (failure !== undefined) return;
      size += chunk.length;
      if (size > limits.maxFileSize) {
        fail(tooLarge(`File '${field}' is larger than the limit of ${limits.maxFileSize} bytes (uploads.maxFileSize)`));
        return;
      }
      if (spilled !== undefined) {
        if (!spilled.stream.write(chunk)) {
          stream.pause();
          spilled.stream.once('drain', () => stream.resume());
        }
        return;
      }
      chunks.push(chunk);
      held += chunk.length;
      if (held <= limits.memoryFileSize || spilling !== undefined) return;
      // Outgrew memory: later chunks wait while the temporary file is made, then everything goes there.
      stream.pause();
      spilling = folder.create(fs, path, index).then((created) => {
        spilled = created;
        created.stream.on('error', failToWrite);
        for (const held of chunks.splice(0)) created.stream.write(held);
        stream.resume();
      }, failToWrite);
    });
    stream.on('error', (error) => fail(malformed((error as Error).message)));
    stream.on('end', async () => {
      await spilling;
      if (failure !== undefined) return;
      if (spilled === undefined) return resolve();
      spilled.stream.end((error?: Error | null) => (error ? failToWrite(error) : resolve()));
    });
  });
  if (spilled === undefined) return uploadedFile(chunks, name, type);
  // A Blob backed by the file: read when the handler reads it, never held in memory.
  try {
    return uploadedFile([await fs.openAsBlob(spilled.file, { type })], name, type);
  } catch (error) {
    throw folder.removed ? requestOver() : error;
  }
}

/** A field part as text (UTF-8). Past maxFieldSize it calls `stop` at once, mid-part. */
function receiveField(stream: BusboyFileStream, field: string, limits: UploadLimits, stop: (error: unknown) => void): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failure: unknown;
    const fail = (error: unknown) => {
      if (failure !== undefined) return;
      failure = error;
      stream.resume();
      stop(error);
      reject(error);
    };
    stream.on('data', (chunk: Buffer) => {
      if (failure !== undefined) return;
      size += chunk.length;
      if (size > limits.maxFieldSize)
        fail(tooLarge(`Field '${field}' is larger than the limit of ${limits.maxFieldSize} bytes (uploads.maxFieldSize)`));
      else chunks.push(chunk);
    });
    stream.on('error', (error) => fail(malformed((error as Error).message)));
    stream.on('end', () => {
      if (failure === undefined) resolve(fieldText.decode(Buffer.concat(chunks, size)));
    });
  });
}

const fieldText = new TextDecoder();

/** A part as busboy's own rule tells them apart: a file has a file name or is `application/octet-stream`. */
function isFilePart(filename: string | undefined, mimeType: string): boolean {
  return filename !== undefined || mimeType === 'application/octet-stream';
}

/**
 * Reads a `multipart/form-data` body into a web `FormData`: fields as strings, files as web
 * `File`s (in memory up to `memoryFileSize`, else backed by a temporary file in `folder`), in the
 * order the parts were sent. Streams the body through `@fastify/busboy` with backpressure; answers
 * 413 the moment any limit is passed (mid-part: nothing more of the body is read) and 400 for a
 * body that is not valid multipart (no boundary, a truncated body). On failure the temporary files
 * are removed before it rejects.
 */
export async function readMultipart(
  body: ReadableStream<Uint8Array> | null,
  contentType: string,
  limits: UploadLimits,
  folder: UploadFolder,
): Promise<FormData> {
  const Busboy = await loadBusboy();
  let parser: BusboyInstance;
  try {
    parser = new Busboy({
      headers: { 'content-type': contentType },
      // Every part as a stream, fields too: busboy reads a field to its end before it reports the
      // field too large, where a stream lets Kiln stop at the byte that passes the limit.
      isPartAFile: () => true,
      limits: { parts: limits.maxFiles + limits.maxFields },
    });
  } catch (error) {
    throw malformed((error as Error).message);
  }
  // Each part's slot is taken when the part starts, so a file that spills to disk keeps its place.
  const entries: [name: string, value: string | File | undefined][] = [];
  const parts: Promise<void>[] = [];
  let failure: unknown;
  let stopped!: () => void;
  const failed = new Promise<void>((resolve) => {
    stopped = resolve;
  });
  const fail = (error: unknown) => {
    if (failure !== undefined) return;
    failure = error;
    stopped();
  };
  let fileCount = 0;
  let fieldCount = 0;
  parser.on('file', (name, stream, filename, _encoding, mimeType) => {
    // A stream without an 'error' listener would throw when the body breaks off inside it.
    stream.on('error', () => {});
    if (failure !== undefined) {
      stream.resume();
      return;
    }
    const entry: [string, string | File | undefined] = [name, undefined];
    entries.push(entry);
    const fill = (value: string | File) => {
      entry[1] = value;
    };
    // One part too many is refused once the parts before it are read: a limit one of them passes came first.
    const tooMany = (error: HttpError) => {
      stream.resume();
      void Promise.allSettled(parts).then(() => fail(error));
    };
    if (!isFilePart(filename, mimeType)) {
      if (++fieldCount > limits.maxFields) return tooMany(tooLarge(`More than ${limits.maxFields} fields (uploads.maxFields)`));
      parts.push(receiveField(stream, name, limits, fail).then(fill, fail));
      return;
    }
    if (++fileCount > limits.maxFiles) return tooMany(tooLarge(`More than ${limits.maxFiles} files (uploads.maxFiles)`));
    parts.push(receiveFile(stream, name, filename ?? '', mimeType, limits, folder, fileCount - 1, fail).then(fill, fail));
  });
  parser.on('partsLimit', () =>
    fail(tooLarge(`More than ${limits.maxFiles + limits.maxFields} parts (uploads.maxFiles + uploads.maxFields)`)),
  );
  const parsed = new Promise<void>((resolve) => {
    parser.on('finish', resolve);
    parser.on('error', (error) => {
      fail(malformed((error as Error).message));
      resolve();
    });
  });
  try {
    if (body === null) throw malformed('the body is empty');
    const reader = body.getReader();
    try {
      // A limit passed inside a part ends the wait for the next chunk or for the parser's drain at once.
      for (;;) {
        const read = await Promise.race([reader.read(), failed]);
        if (failure !== undefined || read === undefined || read.done) break;
        if (!parser.write(read.value)) await Promise.race([new Promise((resolve) => parser.once('drain', resolve)), failed]);
        if (failure !== undefined) break;
      }
    } catch (error) {
      // The body stream's own error: 413 past maxTotalSize, 400 for a body that ended early.
      fail(error instanceof HttpError ? error : malformed((error as Error).message));
    } finally {
      if (failure !== undefined) reader.cancel().catch(() => {});
    }
    if (failure === undefined) {
      parser.end();
      await Promise.race([parsed, failed]);
      await Promise.race([Promise.all(parts), failed]);
    }
    // After a failure the parser is dropped: parts still arriving never end, and are removed with the folder.
    if (failure !== undefined) {
      parser.destroy();
      throw failure;
    }
    return partsForm(entries.filter((entry): entry is [string, string | File] => entry[1] !== undefined));
  } catch (error) {
    await folder.remove();
    throw error;
  }
}
