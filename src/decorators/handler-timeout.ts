import { kilnError } from '../kiln-error.js';
import { createRouteMetadata } from './route-metadata.js';

/** Checks a handler timeout in milliseconds: a whole number, 0 for none. */
export function handlerTimeoutValue(where: string, value: unknown): number {
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > 2_147_483_647)
    throw kilnError('KILN007', 'milliseconds', where, value);
  return value as number;
}

/**
 * The longest a route's handler may take to answer, in milliseconds, on a controller class (all
 * its routes) or a route method (which wins); 0 turns the application's `handlerTimeout` off for
 * it. Past it, the request answers 503 `{"error":"Service Unavailable","message":"The handler did
 * not answer within N ms"}`, `req.signal` is aborted, and the handler's late result is discarded.
 *
 * @example
 * ```ts
 * @Controller('/reports')
 * @HandlerTimeout(30_000)
 * class ReportsController {
 *   @Get('/quick') @HandlerTimeout(500) quick() { ... }
 * }
 * ```
 */
export const HandlerTimeout = createRouteMetadata((milliseconds: number) => handlerTimeoutValue('@HandlerTimeout(ms)', milliseconds), {
  name: 'HandlerTimeout',
});
