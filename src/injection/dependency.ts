import type { Scope } from './scopes.js';

/**
 * One dependency of a class or handler, as the transformer writes it beside the class: the token
 * (the class itself for a class-typed parameter, or the `@Inject(token)` argument) and the scope
 * chosen at the injection point.
 */
export interface Dependency {
  readonly token: unknown;
  readonly scope: Scope;
  /** Where it was declared (`UsersController constructor parameter 'users'`), for start-up errors. */
  readonly site: string;
  /** A parameter with a default value and no `@Inject`: `undefined` is passed, so the default applies. */
  readonly useDefault?: boolean;
}

/** Everything a class needs injected: its constructor's parameters and handler parameters marked `@Inject()`. */
export interface DependencyPlan {
  readonly constructorParameters: readonly Dependency[];
  /** Per handler name: the `@Inject()` parameters, in the order the handler's binder reads them. */
  readonly handlers: Readonly<Record<string, readonly Dependency[]>>;
}
