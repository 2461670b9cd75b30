// The request target as both transports hand it over: origin-form (`/path?query`) from a socket
// and from `app.fetch`, absolute-form (`http://host/path`) from a proxy-style client.

import { normalisePath } from './normalise-path.js';

/**
 * The path the router matches: normalised (see normalisePath), no query, no trailing slash
 * (`/items/` is `/items`). An absolute-form target is parsed, and throws on garbage.
 */
export function targetPath(target: string): string {
  let path: string;
  if (target.charCodeAt(0) !== 47 /* / */) path = new URL(target).pathname;
  else {
    const question = target.indexOf('?');
    path = question === -1 ? target : target.slice(0, question);
  }
  path = normalisePath(path);
  return path.length > 1 && path.charCodeAt(path.length - 1) === 47 ? path.slice(0, -1) : path;
}

/** The query string of a request target, without the `?`. */
export function targetSearch(target: string): string {
  if (target.charCodeAt(0) !== 47 /* / */) return new URL(target).search.slice(1);
  const question = target.indexOf('?');
  return question === -1 ? '' : target.slice(question + 1);
}

/** The origin-form target of a web Request's URL (`http://host/a?b#c` → `/a?b`). */
export function originFormTarget(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start === -1) return '/';
  const hash = url.indexOf('#', start);
  return hash === -1 ? url.slice(start) : url.slice(start, hash);
}
