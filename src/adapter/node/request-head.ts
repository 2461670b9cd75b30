import type { IncomingMessage } from 'node:http';

export interface HeadProblem {
  readonly status: 400 | 431;
  readonly message: string;
}

/** `Host` in any letter case, compared without making a lower-case copy of every name (a `toLowerCase` per request). */
function isHost(name: string): boolean {
  return (
    name.length === 4 &&
    (name.charCodeAt(0) | 0x20) === 0x68 /* h */ &&
    (name.charCodeAt(1) | 0x20) === 0x6f /* o */ &&
    (name.charCodeAt(2) | 0x20) === 0x73 /* s */ &&
    (name.charCodeAt(3) | 0x20) === 0x74 /* t */
  );
}

/**
 * What is wrong with a request head that Node's parser let through: more header lines than
 * `maxHeadersCount` (Node would silently drop the rest: 431), or not exactly one `Host` header in
 * an HTTP/1.1 request (RFC 9112 3.2: 400). `undefined` for a sound head.
 * The server must count at least `maxHeadersCount + 1` header lines for the first check to see them.
 */
// hot path: one pass over the raw header names, no allocation
export function headProblem(incoming: IncomingMessage, maxHeadersCount: number): HeadProblem | undefined {
  const raw = incoming.rawHeaders;
  // a hand-made request object (a test double given to app.handler) may not have them
  if (raw === undefined) return undefined;
  if (raw.length > 2 * maxHeadersCount) return { status: 431, message: `The request has more than ${maxHeadersCount} header lines` };
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) if (isHost(raw[i]!)) hosts++;
  if (hosts > 1) return { status: 400, message: 'The request has more than one Host header' };
  if (hosts === 0 && incoming.httpVersionMajor === 1 && incoming.httpVersionMinor === 1) {
    return { status: 400, message: 'The request has no Host header (HTTP/1.1 requires one)' };
  }
  return undefined;
}
