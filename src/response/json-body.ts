import { kSerializer, kStatus } from '../symbols.js';
import type { RequestCore } from '../request/kiln-request.js';
import { KilnError, kilnError } from '../kiln-error.js';
import { ResponseTypeMismatch } from './serializer.js';

export const jsonContentType = 'application/json; charset=utf-8';

/** The status of a plain return value: `@HttpStatus`, else 200, or 204 when there is no value. */
export function valueStatus(req: RequestCore, value: unknown): number {
  return req[kStatus] ?? (value === undefined ? 204 : 200);
}

/**
 * JSON text of a return value; `undefined` means an empty body. The handler's value goes through
 * its route's typed serialiser when it has one (only the properties its type declares). A value
 * JSON cannot write (a bigint, a cycle, a getter that throws) throws KILN046 naming the route; a
 * value outside its type under `typedResponses: 'assert'` throws KILN047 (both answer 500).
 */
export function serialize(req: RequestCore, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const serializer = req[kSerializer];
  try {
    if (serializer !== undefined) return serializer(value);
    // Functions and symbols serialise to undefined; they are sent as JSON null, not as no body.
    return JSON.stringify(value) ?? 'null';
  } catch (error) {
    throw serializationFailure(req, error);
  }
}

function serializationFailure(req: RequestCore, error: unknown): KilnError {
  const route = describeRoute(req);
  const failure =
    error instanceof ResponseTypeMismatch
      ? kilnError('KILN047', 'typeMismatch', route, error.message)
      : kilnError('KILN046', 'notJson', route, describeError(error));
  failure.cause = error;
  return failure;
}

function describeRoute(req: RequestCore): string {
  const route = req.route;
  if (route === undefined) return `${req.method} ${req.path}`;
  return `${route.controller.name}.${route.handler} (${route.method} ${route.path})`;
}

function describeError(error: unknown): string {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    return typeof error;
  }
}
