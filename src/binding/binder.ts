import type { KilnRequest } from '../request/kiln-request.js';

/**
 * A compiled binder turns a request into the argument list of one handler (or middleware `use`).
 * `@kiln/core/transformer` writes one per method at build time; `strict` is the server's
 * `strictValidation`. It may throw an `HttpError` (a 400 for a failed conversion), which the
 * runtime turns into the response.
 */
export type Binder = (req: KilnRequest, strict: boolean) => unknown[] | Promise<unknown[]>;
