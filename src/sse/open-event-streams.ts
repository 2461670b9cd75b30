// The event streams a server has open: an @Sse() stream never ends by itself, so close() ends
// each one when it stops accepting (as it closes WebSockets with 1001), rather than waiting out
// shutdownTimeout and cutting it.

/** Why the `req.signal` of an event stream ended by `close()` is aborted. */
export function eventStreamShutdown(): DOMException {
  return new DOMException('The server is shutting down: the event stream was ended', 'AbortError');
}

export class OpenEventStreams {
  readonly #ends = new Set<() => void>();
  #ended = false;

  /** Registers a stream's `end`; returns its removal. A stream opened after `endAll()` is ended at once. */
  add(end: () => void): () => void {
    if (this.#ended) {
      queueMicrotask(end);
      return () => {};
    }
    this.#ends.add(end);
    return () => this.#ends.delete(end);
  }

  /** `close()`: ends every open stream, and any opened from now on. */
  endAll(): void {
    this.#ended = true;
    const ends = [...this.#ends];
    this.#ends.clear();
    for (const end of ends) end();
  }
}
