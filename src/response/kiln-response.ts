// Kiln's own web Response: the global one, minus the cost of a body stream nobody reads.
// No runtime module is imported here: the class is shared by every runtime Kiln runs on.

/** What the global Response has besides its body: headers, status, statusText, ok, type, url, redirected. */
type ResponseHead = Omit<
  globalThis.Response,
  'body' | 'bodyUsed' | 'arrayBuffer' | 'blob' | 'bytes' | 'formData' | 'json' | 'text' | 'clone'
>;

/** What the global Response can be constructed with. */
type ResponseBody = ConstructorParameters<typeof globalThis.Response>[0];

// The global class with its body members left out of the type: this module declares them itself,
// as accessors and methods where the platform's typings declare properties.
const WebResponse = globalThis.Response as unknown as new (body?: ResponseBody, init?: ResponseInit) => ResponseHead;

/** Statuses whose responses never have a body (Fetch "null body status"). */
function isNullBodyStatus(status: number): boolean {
  return status === 101 || status === 204 || status === 205 || status === 304;
}

const textType = 'text/plain;charset=UTF-8';
const jsonType = 'application/json';

// The global class's own body members, for the bodies it holds itself.
const webPrototype = globalThis.Response.prototype;

let keptBodyOf: (response: object) => string | Uint8Array | undefined;

/**
 * A web `Response` that keeps a string or bytes body as it was given and builds the body's web
 * stream only when something asks for it (`.body`, `.text()`, `.json()`, `.arrayBuffer()`,
 * `.blob()`, `.bytes()`, `.formData()`, `.clone()`). It is a subclass of the global `Response`:
 * `instanceof Response` holds, and every consumer sees what the global one would give.
 *
 * Kiln sends a kept body in one write, without creating or reading a stream. Adopting it is one
 * import: `import { Response } from '@kiln/core'`. Other bodies (a stream, a Blob, FormData,
 * URLSearchParams, an ArrayBuffer) are handed to the global class unchanged.
 *
 * @example
 * ```ts
 * import { Controller, Get, Response } from '@kiln/core';
 *
 * @Controller('/reports')
 * export class ReportsController {
 *   @Get('/latest.csv')
 *   latest() {
 *     return new Response('id,name\n1,Ada\n', { headers: { 'content-type': 'text/csv' } });
 *   }
 * }
 * ```
 */
export class Response extends WebResponse {
  /** The body as given (bytes copied, as the global class copies them); undefined for other bodies. */
  #kept: string | Uint8Array | undefined;
  /** A global Response over the kept body, made on the first read: it owns the stream from then on. */
  #streamed: globalThis.Response | undefined;
  /** Set for bodies the global class holds itself. */
  #native: boolean;

  static {
    // The writer's view of the kept body: only while no stream over it was locked or read.
    keptBodyOf = (response) => {
      if (!(#kept in response)) return undefined;
      const kept = response as Response;
      const streamed = kept.#streamed;
      if (streamed !== undefined && (streamed.bodyUsed || streamed.body?.locked)) return undefined;
      return kept.#kept;
    };
  }

  constructor(body?: ResponseBody, init?: ResponseInit) {
    const keeps = typeof body === 'string' || body instanceof Uint8Array;
    super(keeps ? null : body, init);
    this.#native = !keeps;
    if (keeps)
      this.#keep(typeof body === 'string' ? body : new Uint8Array(body as Uint8Array), typeof body === 'string' ? textType : undefined);
  }

  /** Like the global `Response.json`: the value as JSON text, with `content-type: application/json` unless `init` sets one. */
  static json(data: unknown, init?: ResponseInit): Response {
    const text = JSON.stringify(data);
    if (text === undefined) throw new TypeError('Value is not JSON serializable');
    const response = new Response(null, init);
    response.#keep(text, jsonType);
    return response;
  }

  declare static error: (typeof globalThis.Response)['error'];
  declare static redirect: (typeof globalThis.Response)['redirect'];

  #keep(body: string | Uint8Array, contentType: string | undefined): void {
    // As the global constructor: a 204, 205 or 304 with a body is a caller's mistake.
    if (isNullBodyStatus(this.status)) throw new TypeError(`Response constructor: Invalid response status code ${this.status}`);
    if (contentType !== undefined && !this.headers.has('content-type')) this.headers.set('content-type', contentType);
    this.#kept = body;
    this.#native = false;
  }

  /**
   * The global Response that holds the body's stream: for a kept body, one made now over it, with
   * this Response's content type (what `blob()` and `formData()` read).
   */
  #body(): globalThis.Response {
    if (this.#streamed === undefined) {
      const contentType = this.headers.get('content-type');
      this.#streamed = new globalThis.Response(
        this.#kept ?? null,
        contentType === null ? undefined : { headers: { 'content-type': contentType } },
      );
    }
    return this.#streamed;
  }

  get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    if (this.#native) return Reflect.get(webPrototype, 'body', this);
    return this.#kept === undefined ? null : this.#body().body;
  }

  get bodyUsed(): boolean {
    if (this.#native) return Reflect.get(webPrototype, 'bodyUsed', this);
    return this.#streamed?.bodyUsed ?? false;
  }

  text(): Promise<string> {
    return this.#native ? webPrototype.text.call(this) : this.#body().text();
  }

  json(): Promise<any> {
    return this.#native ? webPrototype.json.call(this) : this.#body().json();
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    return this.#native ? webPrototype.arrayBuffer.call(this) : this.#body().arrayBuffer();
  }

  blob(): Promise<Blob> {
    return this.#native ? webPrototype.blob.call(this) : this.#body().blob();
  }

  formData(): Promise<FormData> {
    return this.#native ? webPrototype.formData.call(this) : this.#body().formData();
  }

  bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.arrayBuffer().then((bytes) => new Uint8Array(bytes));
  }

  /** A copy with its own body: a kept body is shared (neither side writes to it), a stream is teed. */
  clone(): Response {
    if (this.#native) {
      const copy = webPrototype.clone.call(this) as globalThis.Response;
      return new Response(copy.body, { status: this.status, statusText: this.statusText, headers: this.headers });
    }
    if (this.bodyUsed || this.#streamed?.body?.locked) throw new TypeError('Response.clone: Body has already been consumed.');
    const copy = new Response(null, { status: this.status, statusText: this.statusText, headers: this.headers });
    copy.#native = false;
    copy.#kept = this.#kept;
    const streamed = this.#streamed;
    if (streamed?.body != null) {
      // The stream was handed out: both sides read a branch of it, as with the global class.
      const [mine, theirs] = streamed.body.tee();
      this.#streamed = new globalThis.Response(mine, { headers: streamed.headers });
      copy.#streamed = new globalThis.Response(theirs, { headers: streamed.headers });
    }
    return copy;
  }
}

/**
 * The string or bytes a Kiln {@link Response} keeps, while no stream over them was locked or read;
 * undefined for any other Response. The writer sends it in one write.
 */
export function keptBody(response: object): string | Uint8Array | undefined {
  return keptBodyOf(response);
}
