import type { KilnRequest } from '../request/kiln-request.js';

/**
 * A compiled binder turns a request into the argument list of one handler (or middleware `use`).
 * `@kiln/core/transformer` writes one per method at build time; `strict` is the server's
 * `strictValidation`. It may throw an `HttpError` (a 400 for a failed conversion), which the
 * runtime turns into the response. `injected` holds the handler's `@Inject()` values, resolved once
 * when the application is created.
 */
export type Binder = (req: KilnRequest, strict: boolean, injected: readonly unknown[]) => unknown[] | Promise<unknown[]>;

/** A binder as a route calls it per request: a handler's `@Inject()` values are already bound in. */
export type RouteBinder = (req: KilnRequest, strict: boolean) => unknown[] | Promise<unknown[]>;
