import { bodyTooLarge } from './body-limit.js';

/**
 * `stream` bounded by `limit` bytes: once more has arrived, the reader gets the 413 `HttpError`
 * instead of the next chunk, so `req.body` honours `maxBodySize` exactly as `parseBody()` and
 * `text()` do. The source is left unread, never cancelled: the runtime drops it with the request,
 * and cancelling the body of a Request built from a FormData makes Node 24's and 26's undici throw
 * an uncaught "ReadableStream is already closed" from its producer, ending the process.
 */
export function limitedStream(stream: ReadableStream<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
  let size = 0;
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > limit) controller.error(bodyTooLarge(limit));
        else controller.enqueue(chunk);
      },
    }),
    { preventCancel: true },
  );
}

/** A stream that fails at once with the 413: the declared Content-Length is already over the limit. */
export function refusedStream(limit: number): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (controller) => controller.error(bodyTooLarge(limit)) });
}

/** The stream of a request that has no body: it ends before its first read. */
export function emptyStream(): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (controller) => controller.close() });
}
