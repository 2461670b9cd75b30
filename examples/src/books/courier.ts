/**
 * The courier's delivery estimate, in days: a stand-in for a call to another service that answers
 * after `delayMs`. It stops waiting as soon as `signal` aborts (rejecting with the signal's
 * reason), as a `fetch(url, { signal })` to a real courier would.
 */
export function askCourier(bookId: number, delayMs: number, signal: AbortSignal): Promise<number> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve(1 + (bookId % 3));
    }, delayMs);
    signal.addEventListener('abort', stop, { once: true });
  });
}
