// The text/event-stream wire format (WHATWG HTML, "Server-sent events"): each event is its field
// lines followed by a blank line; a line starting with ':' is a comment, which clients ignore.

/** Sent when a stream opens (so that every runtime and proxy sends the head at once) and after each quiet `heartbeat`. */
export const commentLine = ':\n\n';

/** Any line break the format knows: CRLF, CR or LF. */
const lineBreak = /\r\n|\r|\n/;

/**
 * One event: `event:`, `id:` and `retry:` when given, then one `data:` line per line of `data`
 * (none when it is undefined), then the blank line that dispatches it.
 */
export function frameEvent(data: string | undefined, event?: string, id?: string, retry?: number): string {
  let text = '';
  if (event !== undefined) text += `event: ${event}\n`;
  if (id !== undefined) text += `id: ${id}\n`;
  if (retry !== undefined) text += `retry: ${retry}\n`;
  if (data !== undefined) for (const line of data.split(lineBreak)) text += `data: ${line}\n`;
  return `${text}\n`;
}
