import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../../http-error.js';
import { kCloseConnection, kOversizedBody, kProtocolVersion, kWhenAnswered } from '../../symbols.js';
import { bodyTooLarge } from '../../request/body-limit.js';
import { emptyStream, refusedStream } from '../../request/body-stream.js';
import { NodeHeaders, protoHeader } from './node-headers.js';
import { type AnsweredListener, RequestCore, type RequestOptions } from '../../request/kiln-request.js';

/** The reason of `req.signal` when the client leaves first: an `AbortError`, as `fetch` rejects with. */
export function clientGone(): DOMException {
  return new DOMException('The client closed the connection before the answer was sent', 'AbortError');
}

/**
 * A request without `Content-Length` or `Transfer-Encoding` has no body (RFC 9112 6.3). The Node
 * listener asks Node not to run such a request's readable life cycle (`optimizeEmptyRequests`),
 * so its `IncomingMessage` emits neither 'data' nor 'end': its empty body is answered here.
 */
function hasNoBody(incoming: IncomingMessage): boolean {
  const headers = incoming.headers;
  return headers['content-length'] === undefined && headers['transfer-encoding'] === undefined;
}

function bodyEndedEarly(): HttpError {
  return new HttpError(400, 'The request body ended before its declared length');
}

/** A KilnRequest over Node's `IncomingMessage`: nothing is copied until it is read. */
export class NodeRequest extends RequestCore {
  readonly incoming: IncomingMessage;
  readonly response: ServerResponse;
  #headers: Headers | undefined;
  #flatHeaders: Record<string, string> | undefined;

  constructor(incoming: IncomingMessage, response: ServerResponse, options: RequestOptions) {
    super(incoming.method!, incoming.url!, options);
    this.incoming = incoming;
    this.response = response;
  }

  /** Node emits 'close' on every response: once it is sent, or when the connection ends first. */
  override [kWhenAnswered](listener: AnsweredListener): void {
    const response = this.response;
    response.on('close', () => listener(response.statusCode, response.writableFinished));
  }

  override get [kProtocolVersion](): string {
    return this.incoming.httpVersion;
  }

  get headers(): Headers {
    return (this.#headers ??= new NodeHeaders(this.incoming.headers, this.incoming.rawHeaders) as unknown as Headers);
  }

  get flatHeaders(): Record<string, string> {
    if (this.#flatHeaders === undefined) {
      const flat: Record<string, string> = Object.create(null);
      const raw = this.incoming.headers;
      for (const name in raw) {
        const value = raw[name];
        if (value !== undefined) flat[name] = typeof value === 'string' ? value : value.join(', ');
      }
      const proto = protoHeader(this.incoming.rawHeaders);
      // An own data property: `flat` has no prototype, hence no __proto__ accessor to trip.
      if (proto !== undefined)
        Object.defineProperty(flat, '__proto__', { value: proto, enumerable: true, writable: true, configurable: true });
      this.#flatHeaders = flat;
    }
    return this.#flatHeaders;
  }

  get protocol(): 'http' | 'https' {
    return (this.incoming.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  }

  get hostname(): string {
    const host = this.incoming.headers.host ?? '';
    if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
    const colon = host.indexOf(':');
    return colon === -1 ? host : host.slice(0, colon);
  }

  get url(): string {
    const target = this.incoming.url!;
    if (!target.startsWith('/')) return target; // absolute-form request target
    return `${this.protocol}://${this.incoming.headers.host ?? 'localhost'}${target}`;
  }

  protected socketAddress(): string | undefined {
    const address = this.incoming.socket.remoteAddress;
    // A dual-stack listener reports IPv4 clients as '::ffff:203.0.113.7'; one client, one address.
    return address?.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
  }

  protected declaredLength(): string | undefined {
    return this.incoming.headers['content-length'];
  }

  protected watchDisconnect(controller: AbortController, done: () => void): void {
    const response = this.response;
    response.once('close', () => {
      if (!response.writableFinished) controller.abort(clientGone());
      done();
    });
  }

  /**
   * The body as a web stream, bounded by maxBodySize like every other way of reading it. Built on
   * the IncomingMessage's events rather than `Readable.toWeb`, whose cancel destroys the socket:
   * past the limit the reader gets the 413 and Kiln can still answer it (then closes the connection).
   */
  protected afterAnswer(remove: () => void): void {
    // 'close' comes once the answer is sent, or once the client is gone before that.
    if (this.response.closed) remove();
    else this.response.once('close', remove);
  }

  protected openStream(limit = this.options.maxBodySize): ReadableStream<Uint8Array> | null {
    const incoming = this.incoming;
    if (this[kOversizedBody]() !== undefined) return refusedStream(limit);
    if (hasNoBody(incoming)) return emptyStream();
    let size = 0;
    let settled = false;
    const stopReading = () => {
      settled = true;
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
      if (!incoming.complete) {
        incoming.pause();
        this[kCloseConnection] = true;
      }
    };
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        stopReading();
        controller.error(bodyTooLarge(limit));
        return;
      }
      controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      if ((controller.desiredSize ?? 1) <= 0) incoming.pause();
    };
    const onEnd = () => {
      stopReading();
      controller.close();
    };
    const onError = () => {
      stopReading();
      controller.error(bodyEndedEarly());
    };
    const onClose = () => {
      if (settled || incoming.complete) return;
      stopReading();
      controller.error(bodyEndedEarly());
    };
    return new ReadableStream<Uint8Array>(
      {
        start: (c) => {
          controller = c;
          incoming.on('data', onData);
          incoming.on('end', onEnd);
          incoming.on('error', onError);
          incoming.on('close', onClose);
        },
        pull: () => {
          if (!settled) incoming.resume();
        },
        cancel: () => stopReading(),
      },
      new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
    );
  }

  protected readBytes(limit: number): Promise<Buffer> {
    const incoming = this.incoming;
    if (hasNoBody(incoming)) return Promise.resolve(Buffer.alloc(0));
    return new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const cleanup = () => {
        incoming.off('data', onData);
        incoming.off('end', onEnd);
        incoming.off('error', onError);
        incoming.off('close', onClose);
      };
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) {
          cleanup();
          incoming.pause();
          this[kCloseConnection] = true;
          reject(bodyTooLarge(limit));
          return;
        }
        chunks.push(chunk);
      };
      const onEnd = () => {
        cleanup();
        resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
      };
      const onError = () => {
        // The stream errs only when the client aborts or breaks framing: a client problem, not a bug.
        cleanup();
        this[kCloseConnection] = true;
        reject(bodyEndedEarly());
      };
      const onClose = () => {
        if (incoming.complete) return;
        cleanup();
        reject(bodyEndedEarly());
      };
      incoming.on('data', onData);
      incoming.on('end', onEnd);
      incoming.on('error', onError);
      incoming.on('close', onClose);
    });
  }
}
