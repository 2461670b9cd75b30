import { countedContentLength } from '../adapter/head-limits.js';
import { originFormTarget } from '../router/request-target.js';
import { kOversizedBody } from '../symbols.js';
import { bodyTooLarge } from './body-limit.js';
import { limitedStream, refusedStream } from './body-stream.js';
import { RequestCore, type RequestOptions } from './kiln-request.js';

const decimal = /^\d{1,15}$/;

/**
 * Asks the runtime for a request's socket address. A listener passes one such function for all
 * its requests: asking is a native call (Bun's `requestIP`, Deno's `remoteAddr`), made only when
 * `req.ip`, `req.remoteAddress` or a limiter's key needs the address.
 */
export type SocketAddressOf = (request: Request, context: unknown) => string | undefined;

/** A KilnRequest over a web `Request`, for in-process dispatch with `app.fetch`. */
export class FetchRequest extends RequestCore {
  readonly source: Request;
  #socketAddress: string | SocketAddressOf | undefined;
  readonly #context: unknown;
  #url: URL | undefined;
  #flatHeaders: Record<string, string> | undefined;

  /**
   * `socketAddress`: the client's, or how to ask the runtime for it (given `context`), when a
   * runtime's listener (Bun, Deno) passes the request on; none in process.
   */
  constructor(source: Request, options: RequestOptions, socketAddress?: string | SocketAddressOf, context?: unknown) {
    super(source.method, originFormTarget(source.url), options);
    this.source = source;
    this.#socketAddress = socketAddress;
    this.#context = context;
  }

  get url(): string {
    return this.source.url;
  }
  get headers(): Headers {
    return this.source.headers;
  }
  get protocol(): 'http' | 'https' {
    return this.#parsedUrl().protocol === 'https:' ? 'https' : 'http';
  }
  get hostname(): string {
    return this.#parsedUrl().hostname;
  }

  #parsedUrl(): URL {
    return (this.#url ??= new URL(this.source.url));
  }

  get flatHeaders(): Record<string, string> {
    if (this.#flatHeaders === undefined) {
      const flat: Record<string, string> = Object.create(null);
      this.source.headers.forEach((value, name) => {
        flat[name] = value;
      });
      this.#flatHeaders = flat;
    }
    return this.#flatHeaders;
  }

  protected socketAddress(): string | undefined {
    const address = this.#socketAddress;
    if (typeof address !== 'function') return address;
    // Asked once, on first use: most requests never need it.
    const asked = address(this.source, this.#context);
    this.#socketAddress = asked;
    return asked;
  }
  /** The incoming Request's signal (Bun and Deno abort it when the client leaves; a caller of `app.fetch` may abort it). */
  protected watchDisconnect(controller: AbortController): void {
    const incoming = this.source.signal;
    if (incoming.aborted) controller.abort(incoming.reason);
    else incoming.addEventListener('abort', () => controller.abort(incoming.reason), { once: true });
  }
  /** `app.fetch` removes the uploads itself, once the answer is made. */
  protected afterAnswer(): void {}

  protected openStream(limit = this.options.maxBodySize): ReadableStream<Uint8Array> | null {
    const body = this.source.body;
    if (body === null) return null;
    return this[kOversizedBody]() !== undefined ? refusedStream(limit) : limitedStream(body, limit);
  }

  protected declaredLength(): string | undefined {
    // Bun's and Deno's listeners count the head first (head-limits.ts), and read Content-Length then.
    const counted = countedContentLength(this.source);
    if (counted !== null) return counted;
    return this.source.headers.get('content-length') ?? undefined;
  }

  protected async readBytes(limit: number): Promise<Buffer> {
    const declared = this.declaredLength();
    if (declared !== undefined && decimal.test(declared) && Number(declared) <= limit) {
      // A declared length within the limit: read at once by the runtime (Bun and Deno make no
      // JavaScript stream for it). A server holds the body to its declared length; a Request
      // built in process is not bound by its header, so the size is checked again.
      const bytes = await this.source.arrayBuffer();
      if (bytes.byteLength > limit) throw bodyTooLarge(limit);
      return Buffer.from(bytes);
    }
    if (this.source.body === null) return Buffer.alloc(0);
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = this.source.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        throw bodyTooLarge(limit);
      }
      chunks.push(value);
    }
    return Buffer.concat(chunks, size);
  }
}
