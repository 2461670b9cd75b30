/**
 * What the router decided for one request: a route (with its parameters), or why there is none.
 * Every decision has the same four fields in the same order, so the code that reads them sees
 * one object shape whatever the outcome.
 */
export type RouteDecision<R> =
  | { readonly kind: 'route'; readonly route: R; readonly params: Record<string, string> | undefined; readonly allow: string }
  /** No route has this path: 404. */
  | { readonly kind: 'not-found'; readonly route: undefined; readonly params: undefined; readonly allow: undefined }
  /** The path exists, but not with this method: 405 with `Allow`. */
  | { readonly kind: 'method-not-allowed'; readonly route: undefined; readonly params: undefined; readonly allow: string }
  /** `OPTIONS` on a path that has no OPTIONS route: 204 with `Allow`. */
  | { readonly kind: 'options'; readonly route: undefined; readonly params: undefined; readonly allow: string };

export type UnroutedDecision = Exclude<RouteDecision<unknown>, { kind: 'route' }>;

export const notFound: UnroutedDecision = Object.freeze({ kind: 'not-found', route: undefined, params: undefined, allow: undefined });

export function routeDecision<R>(route: R, params: Record<string, string> | undefined, allow: string): RouteDecision<R> {
  return { kind: 'route', route, params, allow };
}

export function unroutedDecision(kind: 'method-not-allowed' | 'options', allow: string): UnroutedDecision {
  return Object.freeze({ kind, route: undefined, params: undefined, allow });
}
