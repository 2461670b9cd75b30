import type { Socket } from 'node:net';
import type { ErrorFormat } from '../../response/error-format.js';
import { reasonPhrase } from '../../response/reason-phrase.js';

interface ParserError extends Error {
  code?: string;
}

function statusFor(error: ParserError): number {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return 431;
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 408;
    default:
      return 400;
  }
}

function messageFor(status: number): string {
  if (status === 431) return 'Request line and headers are larger than the server accepts';
  if (status === 408) return 'The request was not received in time';
  return 'Malformed HTTP request';
}

/**
 * Answers a request Node's parser rejected (malformed syntax, headers too large, too slow) with
 * the server's error body, then closes the connection: after a parse error the byte stream
 * cannot be trusted for another request. Nothing of the request is echoed back.
 */
export function answerClientError(errors: ErrorFormat, error: ParserError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = statusFor(error);
  const body = errors.body(status, messageFor(status));
  socket.end(
    `HTTP/1.1 ${status} ${reasonPhrase(status)}\r\ncontent-type: ${errors.contentType}\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
  socket.destroySoon?.();
}
