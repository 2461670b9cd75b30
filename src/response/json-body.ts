import { kSerializer, kStatus } from '../symbols.js';
import type { RequestCore } from '../request/kiln-request.js';

export const jsonContentType = 'application/json; charset=utf-8';

/** The status of a plain return value: `@HttpStatus`, else 200, or 204 when there is no value. */
export function valueStatus(req: RequestCore, value: unknown): number {
  return req[kStatus] ?? (value === undefined ? 204 : 200);
}

/**
 * JSON text of a return value; `undefined` means an empty body. The handler's value goes through
 * its route's typed serialiser when it has one (only the properties its type declares).
 */
export function serialize(req: RequestCore, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const serializer = req[kSerializer];
  if (serializer !== undefined) return serializer(value);
  // Functions and symbols serialise to undefined; they are sent as JSON null, not as no body.
  return JSON.stringify(value) ?? 'null';
}
