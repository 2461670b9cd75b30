// The close codes Kiln sends (RFC 6455 §7.4.1), by what they mean here.
export const closeCodes = Object.freeze({
  normal: 1000,
  /** `app.close()`: the server is going away. */
  goingAway: 1001,
  /** A binary message: Kiln's sockets carry JSON text. */
  unsupportedData: 1003,
  /** Cut without a closing handshake (reported, never sent). */
  abnormal: 1006,
  /** A message that is not JSON, or does not fit the declared type. */
  invalidPayload: 1007,
  /** Too many messages per second, or a client that reads too slowly. */
  policyViolation: 1008,
  /** A message larger than `maxMessageSize`. */
  tooBig: 1009,
  /** A handler threw. */
  internalError: 1011,
});

/** The longest close reason a frame carries: 123 bytes of UTF-8. */
const longestReason = 123;

/** `reason` cut to what a close frame can carry, on a character boundary. */
export function closeReason(reason: string): string {
  const encoder = new TextEncoder();
  if (encoder.encode(reason).byteLength <= longestReason) return reason;
  let cut = reason.slice(0, longestReason);
  while (encoder.encode(`${cut}…`).byteLength > longestReason) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** Whether an application may send `code` itself: 1000 or the 3000–4999 range. */
export function isApplicationCloseCode(code: number): boolean {
  return code === 1000 || (Number.isInteger(code) && code >= 3000 && code <= 4999);
}
