import { ClientError, type Failed, type Ok } from './client-result.js';
import { type EventFormat, readEvents } from './event-stream-reader.js';
import { formDataOf, parameterTexts } from './encode-value.js';

/** Anything that answers a `Request` with a `Response`: the global `fetch`, or a Kiln app's `app.fetch`. */
export type FetchFunction = (request: Request) => Promise<Response>;

/** Headers as `new Headers(...)` takes them: a record, a list of pairs, a `Headers`. */
export type HeaderValues = ConstructorParameters<typeof Headers>[0];

/** How a generated client reaches the server. */
export interface ClientOptions {
  /** Prepended to every route's path (`https://api.example.com`, `/api`). Default: the page's origin in a browser, else `http://localhost`. */
  readonly baseUrl?: string;
  /** Sent with every call (a call's own `init.headers` win); a function is asked before each call (a fresh token). */
  readonly headers?: HeaderValues | (() => HeaderValues);
  /** Default: the global `fetch`. `app.fetch` calls a Kiln app in process, without a socket. */
  readonly fetch?: FetchFunction;
  /** Defaults for every call's `RequestInit` (`credentials`, `mode`, ...); a call's own `init` wins. */
  readonly init?: RequestInit;
}

/** Where a parameter goes, and whether it is one JSON text (a JSON-typed parameter). */
export type ParameterPlace = 'path' | 'query' | 'header' | 'cookie' | 'path-json' | 'query-json' | 'header-json' | 'cookie-json';

/** One route, as a generated client describes it to the runtime. */
export interface Operation {
  readonly method: string;
  /** The OpenAPI path: `/books/{id}`. */
  readonly path: string;
  /** Each input key that is a parameter, and where it goes. */
  readonly parameters?: Readonly<Record<string, ParameterPlace>>;
  /** How the input's `body` is sent. */
  readonly body?: 'json' | 'multipart';
  /** A success is the `Response` itself (a route that returns one: any content). */
  readonly raw?: true;
  /** An `@Sse()` route: a success is an async iterable of its events' data, read as JSON or as text. */
  readonly events?: EventFormat;
  /** The error statuses the route declares: answered as values; any other error is thrown. */
  readonly errors?: readonly number[];
}

/** What a call answers, as the generated functions type it. */
export type Answer = Ok<number, unknown> | Failed<number, unknown>;

/** The function every generated route function calls. */
export type Caller = (operation: Operation, input: Record<string, unknown> | undefined, init: RequestInit | undefined) => Promise<Answer>;

function defaultBase(): string {
  const location = (globalThis as { location?: { origin?: string } }).location;
  return typeof location?.origin === 'string' && location.origin !== 'null' ? location.origin : 'http://localhost';
}

async function bodyOf(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205 || response.status === 304 || response.body === null) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  return /[/+]json\b/i.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : text;
}

/** The request of one call: the path filled in, the query and headers written, the body encoded. */
function requestOf(options: ClientOptions, operation: Operation, input: Record<string, unknown>, init: RequestInit | undefined): Request {
  const query: string[] = [];
  const headers = new Headers(typeof options.headers === 'function' ? options.headers() : options.headers);
  let path = operation.path;
  const cookies: string[] = [];
  for (const [key, place] of Object.entries(operation.parameters ?? {})) {
    const texts = parameterTexts(input[key], place.endsWith('-json'));
    if (place.startsWith('path')) path = path.replace(`{${key}}`, encodeURIComponent(texts[0] ?? ''));
    else if (place.startsWith('query')) for (const text of texts) query.push(`${encodeURIComponent(key)}=${encodeURIComponent(text)}`);
    // A browser's fetch sends its own cookies and drops this header; a server-side caller sends it.
    else if (place.startsWith('cookie')) {
      if (texts.length > 0) cookies.push(`${key}=${encodeURIComponent(texts[0]!)}`);
    } else if (texts.length > 0) headers.set(key, texts.join(', '));
  }
  if (cookies.length > 0) headers.set('cookie', cookies.join('; '));
  let body: FormData | string | undefined;
  const value = input['body'];
  if (operation.body === 'multipart' && value !== undefined) body = formDataOf(value as Record<string, unknown>);
  else if (operation.body === 'json' && value !== undefined) {
    body = JSON.stringify(value);
    headers.set('content-type', 'application/json');
  }
  for (const [name, text] of new Headers(init?.headers)) headers.set(name, text);
  const base = (options.baseUrl ?? defaultBase()).replace(/\/+$/, '');
  const url = `${/^[a-z][a-z0-9+.-]*:/i.test(base) ? base : `${defaultBase()}${base}`}${path}${query.length > 0 ? `?${query.join('&')}` : ''}`;
  return new Request(url, { ...options.init, ...init, method: operation.method, headers, body });
}

/**
 * The runtime of a generated client (`createClient` in the module Kiln's build writes): sends one
 * route's request and reads its answer. A success gives `{ ok: true, data }`; a declared error
 * `{ ok: false, status, error }`; an undeclared one throws a {@link ClientError}.
 */
export function createCaller(given: ClientOptions | FetchFunction = {}): Caller {
  const options: ClientOptions = typeof given === 'function' ? { fetch: given } : given;
  return async (operation, input, init) => {
    const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
    const response = await send(requestOf(options, operation, input ?? {}, init));
    if (response.ok) {
      const data =
        operation.events !== undefined
          ? readEvents(response, operation.events)
          : operation.raw === true
            ? response
            : await bodyOf(response);
      return { ok: true, status: response.status, data, response };
    }
    const error = await bodyOf(response);
    if (operation.errors?.includes(response.status)) return { ok: false, status: response.status, error, response };
    throw new ClientError(response.status, error, response);
  };
}

/** A generated client's functions: each operation of `table` (grouped as the client is) bound to one caller. */
export function bindOperations(
  table: Readonly<Record<string, Readonly<Record<string, Operation>>>>,
  options?: ClientOptions | FetchFunction,
): unknown {
  const call = createCaller(options);
  const client: Record<string, Record<string, unknown>> = {};
  for (const [group, operations] of Object.entries(table)) {
    const functions: Record<string, unknown> = (client[group] = {});
    for (const [name, operation] of Object.entries(operations)) {
      functions[name] = (input?: Record<string, unknown>, init?: RequestInit) => call(operation, input, init);
    }
  }
  return client;
}
