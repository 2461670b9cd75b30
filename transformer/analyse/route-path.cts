// Route paths as the runtime reads them (src/router/route-path.ts); duplicated here on purpose:
// the transformer never imports the runtime, so test/transformer/runtime-contract.test.ts holds the
// two together. A path the runtime refuses (KILN006: a malformed or repeated :name) never starts.

/** Controller base path + method path; `'/'` as the method path is the base path itself. */
export function joinRoutePath(basePath: string, methodPath: string): string {
  const joined = `/${basePath}/${methodPath === '/' ? '' : methodPath}`.replace(/\/{2,}/g, '/');
  return joined.length > 1 && joined.endsWith('/') ? joined.slice(0, -1) : joined;
}

/** The names of a path's `:name` segments. */
export function routeParamNames(path: string): string[] {
  return path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => segment.slice(1));
}

/** A path with parameter names erased: two routes of the same shape can never both match. */
export function routeShape(path: string): string {
  return path.replace(/\/:[^/]+/g, '/:');
}
