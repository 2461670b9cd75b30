// The start-up errors of the docs option that only say "this runtime has no file system"
// (Workers): a module that creates the server for Node (docs.document as a path, docs.ui) may be
// imported by a worker that creates its own server, so createServer reports these when that
// server starts (listen(), fetch()) instead of stopping the worker's module from loading.
import { KilnError } from '../kiln-error.js';

const refusals = new WeakSet<KilnError>();

/** `error`, marked as the refusal of a docs feature that needs a file system this runtime lacks. */
export function fileSystemRefusal(error: KilnError): KilnError {
  refusals.add(error);
  return error;
}

/** Whether `error` came from `fileSystemRefusal`. */
export function isFileSystemRefusal(error: unknown): boolean {
  return error instanceof KilnError && refusals.has(error);
}

/**
 * Whether this is Cloudflare Workers (workerd): its `node:fs` (on by default from the 2026
 * compatibility dates) is a virtual one, without the files deployed beside the worker.
 */
export function onWorkers(): boolean {
  return (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent === 'Cloudflare-Workers';
}
