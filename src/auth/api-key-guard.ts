import { HttpError } from '../http-error.js';
import { kilnError } from '../kiln-error.js';
import type { MiddlewareFunction } from '../middleware.js';
import { describeMiddleware } from '../openapi/middleware-description.js';
import type { KilnRequest } from '../request/kiln-request.js';
import { isPromiseLike } from '../is-promise-like.js';
import { errorBodyContent } from './guard-responses.js';

/** The options of `apiKeyGuard`. */
export interface ApiKeyGuardOptions {
  /**
   * The keys accepted (each compared in constant time), or a function that decides (look the key
   * up in a database; return `true` to let the request through).
   */
  readonly keys: readonly string[] | ((key: string, req: KilnRequest) => boolean | Promise<boolean>);
  /** The header that carries the key. Default `x-api-key`. */
  readonly header?: string;
  /** The security scheme's name in the OpenAPI document. Default `apiKeyAuth`. */
  readonly schemeName?: string;
}

const encoder = new TextEncoder();

/** Equal bytes, in time that depends on the length only. */
function sameKey(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

/**
 * A guard that lets a request through only with an accepted API key in a header (`x-api-key` by
 * default); otherwise 401 `A valid API key is required`. The served OpenAPI document gets its
 * `apiKey` security scheme, so the docs page's Authorize button asks for the key.
 *
 * @example
 * ```ts
 * const requireKey = apiKeyGuard({ keys: [process.env.PARTNER_KEY!] });
 * @Controller('/partners', requireKey)
 * class PartnersController { ... }
 * ```
 */
export function apiKeyGuard(options: ApiKeyGuardOptions): MiddlewareFunction {
  const keys = options?.keys;
  const header = (options?.header ?? 'x-api-key').toLowerCase();
  if (
    typeof keys !== 'function' &&
    (!Array.isArray(keys) || keys.length === 0 || keys.some((key) => typeof key !== 'string' || key.length < 16))
  )
    throw kilnError('KILN086', 'apiKeys');
  if (!/^[!#$%&'*+\-.^_`|~0-9a-z]+$/.test(header)) throw kilnError('KILN086', 'apiKeyHeader', header);
  const accepted = typeof keys === 'function' ? undefined : keys.map((key) => encoder.encode(key));
  const refuse = (): never => {
    throw new HttpError(401, 'A valid API key is required');
  };
  const guard = (req: KilnRequest) => {
    const key = req.headers.get(header);
    if (key === null || key === '') return refuse();
    if (accepted !== undefined) {
      const sent = encoder.encode(key);
      let found = false;
      // every key compared, so that the time does not say which one was close
      for (const candidate of accepted) found = sameKey(sent, candidate) || found;
      return found ? undefined : refuse();
    }
    const decided = (keys as (key: string, req: KilnRequest) => boolean | Promise<boolean>)(key, req);
    return isPromiseLike(decided)
      ? Promise.resolve(decided).then((ok) => (ok === true ? undefined : refuse()))
      : decided === true
        ? undefined
        : refuse();
  };
  return describeMiddleware(guard, {
    security: { [options.schemeName ?? 'apiKeyAuth']: { type: 'apiKey', in: 'header', name: header } },
    responses: { 401: { description: 'A valid API key is required', content: errorBodyContent('Unauthorized') } },
  });
}
