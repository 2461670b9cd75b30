import { kilnError } from '../kiln-error.js';
import type { KilnRequest } from '../request/kiln-request.js';
import { isOriginItem } from '../security/origin-rules.js';

/** Which origins may read responses: decided per request from its `Origin` header. */
export type CorsOrigin =
  | boolean
  | string
  | RegExp
  | readonly (string | RegExp)[]
  | ((origin: string | undefined, req: KilnRequest) => boolean | string | Promise<boolean | string>);

/**
 * Options of `cors()`, named as in the `cors` and `@fastify/cors` packages.
 *
 * @example
 * ```ts
 * cors({ origin: ['https://app.example.com', /\.example\.com$/], credentials: true, maxAge: 600 })
 * ```
 */
export interface CorsOptions {
  /**
   * `'*'` (default): any origin, `Access-Control-Allow-Origin: *`. `true`: reflect the request's
   * origin. `false`: no CORS headers at all. A string: that origin only (any other origin is
   * refused, as by a list). A RegExp or a list of strings and RegExps: the request's origin when it
   * matches. A function `(origin, req)` returning (or resolving to) `true` (reflect), `false`
   * (refuse), `'*'`, or an origin, which is granted only when it is the request's own origin.
   */
  origin?: CorsOrigin;
  /** Methods a preflight allows. Default `GET,HEAD,PUT,PATCH,POST,DELETE`. */
  methods?: string | readonly string[];
  /** Request headers a preflight allows. Default: the ones the preflight asks for (`Access-Control-Request-Headers`). */
  allowedHeaders?: string | readonly string[];
  /** Response headers the browser may show to the page (`Access-Control-Expose-Headers`). Default none. */
  exposedHeaders?: string | readonly string[];
  /**
   * Send `Access-Control-Allow-Credentials: true` (cookies, `Authorization`). Needs the origins
   * named: a string, a list, a RegExp or a function — not `'*'`, and not `origin: true` unless
   * `allowAnyOriginWithCredentials` says so. Default false.
   */
  credentials?: boolean;
  /**
   * Acknowledges `origin: true` with `credentials: true`: every site a user visits (and
   * `Origin: null`, sent by sandboxed frames and `file:` pages) may then make credentialed
   * requests and read the answers. Without it that pair is refused (KILN011). Default false.
   */
  allowAnyOriginWithCredentials?: boolean;
  /** Seconds a browser may cache a preflight's answer (`Access-Control-Max-Age`). Default: not sent. */
  maxAge?: number;
  /** Answer preflight requests here. Default true; false passes them on (Kiln's own `OPTIONS` answer then gets the CORS headers). */
  preflight?: boolean;
  /** Status of a preflight answer. Default 204. */
  optionsSuccessStatus?: number;
}

/** A header list option as one header value, checked. */
export function headerList(name: string, value: string | readonly string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw kilnError('KILN011', 'headerList', name);
  return value.join(',');
}

/** Everything that can be wrong with the options is found when `cors()` is called. */
export function checkCorsOptions(options: CorsOptions): void {
  if (options === null || typeof options !== 'object') throw kilnError('KILN011', 'options', options);
  const { origin } = options;
  const originOk =
    origin === undefined ||
    typeof origin === 'boolean' ||
    typeof origin === 'function' ||
    isOriginItem(origin) ||
    (Array.isArray(origin) && origin.every(isOriginItem));
  if (!originOk) throw kilnError('KILN011', 'origin');
  for (const name of ['credentials', 'preflight', 'allowAnyOriginWithCredentials'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'boolean') throw kilnError('KILN011', 'flag', name, typeof options[name]);
  }
  if ((origin === undefined || origin === '*') && options.credentials === true) {
    throw kilnError('KILN011', 'wildcardWithCredentials');
  }
  if (origin === true && options.credentials === true && options.allowAnyOriginWithCredentials !== true) {
    throw kilnError('KILN011', 'anyOriginWithCredentials');
  }
  const { maxAge, optionsSuccessStatus } = options;
  if (maxAge !== undefined && (!Number.isInteger(maxAge) || maxAge < 0)) throw kilnError('KILN011', 'maxAge', maxAge);
  if (
    optionsSuccessStatus !== undefined &&
    (!Number.isInteger(optionsSuccessStatus) || optionsSuccessStatus < 200 || optionsSuccessStatus > 299)
  ) {
    throw kilnError('KILN011', 'optionsSuccessStatus', optionsSuccessStatus);
  }
}
