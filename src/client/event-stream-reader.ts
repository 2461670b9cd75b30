// The typed client's side of an @Sse() route: the body of a text/event-stream response parsed as
// the WHATWG HTML standard's event stream interpretation says (lines ended by CRLF, CR or LF;
// `data` lines joined by LF; comments and other fields skipped; an event dispatched at a blank
// line when it has data), each event's data yielded as JSON or as text.

/** How an event stream's data is read: JSON of the event type, or the text itself. */
export type EventFormat = 'json' | 'text';

const lineEnd = /\r\n|\r|\n/;

/**
 * Yields the data of each event of `response`'s body. Leaving the loop (`break`, `return()`)
 * cancels the body, which closes the connection, so the server's generator is closed too.
 */
export async function* readEvents<T>(response: Response, format: EventFormat): AsyncGenerator<T, void, undefined> {
  const body = response.body;
  if (body === null) return;
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = '';
  let data: string[] = [];
  let first = true;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (!done) pending += value;
      if (first && pending.length > 0) {
        if (pending.charCodeAt(0) === 0xfeff) pending = pending.slice(1);
        first = false;
      }
      // A CR at the end may be the first half of a CRLF: kept for the next chunk.
      const carry = !done && pending.endsWith('\r') ? '\r' : '';
      const lines = (carry === '' ? pending : pending.slice(0, -1)).split(lineEnd);
      // The last piece is not a whole line yet (at the end of the stream, an unfinished event is dropped).
      pending = lines.pop()! + carry;
      for (const line of lines) {
        if (line === '') {
          if (data.length > 0) {
            const text = data.join('\n');
            data = [];
            yield (format === 'json' ? JSON.parse(text) : text) as T;
          }
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        if (field !== 'data') continue;
        const rest = colon === -1 ? '' : line.slice(colon + 1);
        data.push(rest.startsWith(' ') ? rest.slice(1) : rest);
      }
      if (done) return;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}
