// The checks of an opening handshake (RFC 6455 §4.2.1), made before any middleware runs: a request
// that asks for a WebSocket in a way no runtime would accept is answered here, with Kiln's JSON
// error body, the same on every runtime.

/** Why a WebSocket upgrade request is refused before its route runs. */
export interface HandshakeProblem {
  readonly status: number;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A `Sec-WebSocket-Key`: 16 bytes in base64. */
const handshakeKey = /^[A-Za-z0-9+/]{21}[AQgw]==$/;

function hasToken(value: string | null, token: string): boolean {
  return value?.split(',').some((part) => part.trim().toLowerCase() === token) ?? false;
}

/** Whether a request asks to switch to the WebSocket protocol (`Upgrade: websocket`). */
export function asksForWebSocket(headers: Headers): boolean {
  return hasToken(headers.get('upgrade'), 'websocket');
}

/** What is wrong with a WebSocket upgrade request, or undefined when the handshake is well-formed. */
export function handshakeProblem(method: string, headers: Headers): HandshakeProblem | undefined {
  if (method !== 'GET') return { status: 400, message: `A WebSocket handshake is a GET request, not ${method}` };
  if (!hasToken(headers.get('connection'), 'upgrade')) {
    return { status: 400, message: 'A WebSocket handshake needs Connection: Upgrade' };
  }
  if (headers.get('sec-websocket-version')?.trim() !== '13') {
    // RFC 6455 §4.4: name the versions the server speaks.
    return {
      status: 426,
      message: 'This server speaks WebSocket version 13 only (Sec-WebSocket-Version: 13)',
      headers: { 'sec-websocket-version': '13', upgrade: 'websocket' },
    };
  }
  const key = headers.get('sec-websocket-key');
  if (key === null || !handshakeKey.test(key.trim())) {
    return { status: 400, message: 'Sec-WebSocket-Key must be 16 bytes in base64' };
  }
  if (headers.has('transfer-encoding') || (headers.get('content-length') ?? '0') !== '0') {
    return { status: 400, message: 'A WebSocket handshake has no body' };
  }
  return undefined;
}
