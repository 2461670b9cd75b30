// A strict reader of what a server sent on one connection: each response is cut by its own
// framing (content-length or chunked), so a response whose framing lies shows up as garbage
// where the next one should begin.

export interface Parsed {
  status: number;
  headers: Record<string, string[]>;
  body: string;
}

/** Parses back-to-back HTTP/1.1 responses strictly by their own framing (content-length or chunked). */
export function parseResponses(text: string): Parsed[] {
  const parsed: Parsed[] = [];
  let at = 0;
  while (at < text.length) {
    const headEnd = text.indexOf('\r\n\r\n', at);
    if (headEnd === -1) throw new Error(`incomplete head at ${at}: ${JSON.stringify(text.slice(at, at + 80))}`);
    const [statusLine, ...lines] = text.slice(at, headEnd).split('\r\n');
    const match = /^HTTP\/1\.1 (\d{3}) /.exec(statusLine!);
    if (!match) throw new Error(`not a status line: ${JSON.stringify(statusLine)}`);
    const headers: Record<string, string[]> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      (headers[line.slice(0, colon).toLowerCase()] ??= []).push(line.slice(colon + 1).trim());
    }
    at = headEnd + 4;
    let body = '';
    if (headers['transfer-encoding']?.[0] === 'chunked') {
      for (;;) {
        const lineEnd = text.indexOf('\r\n', at);
        const size = parseInt(text.slice(at, lineEnd), 16);
        at = lineEnd + 2;
        if (size === 0) {
          at += 2;
          break;
        }
        body += text.slice(at, at + size);
        at += size + 2;
      }
    } else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length'][0]);
      body = text.slice(at, at + length);
      at += length;
    }
    parsed.push({ status: Number(match[1]), headers, body });
  }
  return parsed;
}
