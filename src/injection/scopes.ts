/**
 * How an injected class is instantiated, chosen at the injection point with `@Scope(...)`
 * (the names yasui, the framework Kiln migrates from, uses).
 *
 * - `SHARED` (default): one instance per application, shared by every injection point.
 * - `LOCAL`: a new instance for this injection point; its own dependencies follow their own scopes.
 * - `DEEP_LOCAL`: a new instance whose dependencies are new too, all the way down.
 */
export const Scopes = Object.freeze({ SHARED: 'shared', LOCAL: 'local', DEEP_LOCAL: 'deep-local' } as const);

/** One of the `Scopes` values. */
export type Scope = (typeof Scopes)[keyof typeof Scopes];
