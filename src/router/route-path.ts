import { kilnError } from '../kiln-error.js';

const paramName = /^[A-Za-z_$][\w$]*$/;

/**
 * Joins a controller base path and a method path into one route path: `'/'` (or `''`) as the
 * method path is the base path itself; the result has one leading slash and no trailing slash.
 */
export function joinRoutePath(basePath: string, methodPath: string): string {
  const joined = `/${basePath}/${methodPath === '/' ? '' : methodPath}`.replace(/\/{2,}/g, '/');
  return joined.length > 1 && joined.endsWith('/') ? joined.slice(0, -1) : joined;
}

/** The names of a path's `:name` segments, in order; throws on a malformed name. */
export function routeParamNames(path: string): string[] {
  const names: string[] = [];
  for (const segment of path.split('/')) {
    if (!segment.startsWith(':')) continue;
    const name = segment.slice(1);
    if (!paramName.test(name)) throw kilnError('KILN006', 'malformedParameter', path, segment);
    if (names.includes(name)) throw kilnError('KILN006', 'repeatedParameter', path, name);
    names.push(name);
  }
  return names;
}

/** The path as an OpenAPI document writes it: `/books/:id` → `/books/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([^/]+)/g, '{$1}');
}

/** A path with every parameter name erased: two routes with the same shape can never both match. */
export function routeShape(path: string): string {
  return path.replace(/\/:[^/]+/g, '/:');
}
