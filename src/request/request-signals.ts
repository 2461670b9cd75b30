// The signals of the requests in flight that somebody asked for (`req.signal`), so that close()
// can abort them at the shutdown deadline. Held weakly: a request whose answer is long sent (and
// whose transport has no "answered" event, as a web Response handed to Bun or Deno) is simply
// collected, and a request nobody asked the signal of never enters the set.

/** Pruning of collected entries happens once the set has grown past this many since the last prune. */
const pruneEvery = 1024;

/** The server's open `req.signal`s; one per server. */
export class RequestSignals {
  readonly #open = new Set<WeakRef<AbortController>>();
  #pruneAt = pruneEvery;

  /** Remembers a request's controller until `forget` (or until it is collected). */
  remember(controller: AbortController): WeakRef<AbortController> {
    const entry = new WeakRef(controller);
    this.#open.add(entry);
    if (this.#open.size >= this.#pruneAt) this.#prune();
    return entry;
  }

  forget(entry: WeakRef<AbortController>): void {
    this.#open.delete(entry);
  }

  /** Aborts every open signal with `reason` (the shutdown deadline passed). */
  abortAll(reason: unknown): void {
    for (const entry of this.#open) entry.deref()?.abort(reason);
    this.#open.clear();
  }

  #prune(): void {
    for (const entry of this.#open) {
      const controller = entry.deref();
      if (controller === undefined || controller.signal.aborted) this.#open.delete(entry);
    }
    this.#pruneAt = Math.max(pruneEvery, this.#open.size * 2);
  }
}
