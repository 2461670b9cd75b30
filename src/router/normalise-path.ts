// Percent-encoded octets; the unreserved ones (RFC 3986 2.3: letters, digits, - . _ ~) are decoded.
const percentEscape = /%[0-9A-Fa-f]{2}/g;

function decodeUnreserved(octet: string): string {
  const code = parseInt(octet.slice(1), 16);
  const unreserved =
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2d ||
    code === 0x2e ||
    code === 0x5f ||
    code === 0x7e;
  // Other escapes keep their meaning (`%2F` is not a separator); upper-case hex makes them compare equal.
  return unreserved ? String.fromCharCode(code) : octet.toUpperCase();
}

/** RFC 3986 5.2.4 on a path starting with `/`: `.` segments dropped, `..` removes the one before. */
function removeDotSegments(path: string): string {
  const segments = path.split('/');
  const output: string[] = [];
  const last = segments.length - 1;
  for (let i = 1; i <= last; i++) {
    const segment = segments[i]!;
    if (segment === '.' || segment === '..') {
      if (segment === '..') output.pop();
      // `/a/b/..` is the directory `/a/`, as a URL parser says
      if (i === last) output.push('');
      continue;
    }
    output.push(segment);
  }
  return `/${output.join('/')}`;
}

/**
 * Whether a path has a `%`, a `\` or a `/.`: one loop over its characters, cheaper on a short path
 * than three `indexOf` calls (the path of every request comes through here).
 */
function needsNormalising(path: string): boolean {
  for (let i = 0; i < path.length; i++) {
    const code = path.charCodeAt(i);
    if (code === 0x25 /* % */ || code === 0x5c /* \ */ || (code === 0x2e /* . */ && i > 0 && path.charCodeAt(i - 1) === 0x2f) /* / */)
      return true;
  }
  return false;
}

/**
 * The one form a request path is matched in, whichever way it arrived (an origin-form target
 * `/a/b`, an absolute-form `http://host/a/b`, a `Request` given to `app.fetch`, whose URL the
 * WHATWG parser has already normalised): unreserved characters percent-decoded (`%66` is `f`),
 * other escapes upper-cased, `\` read as `/` and dot segments resolved (`/a/../b` and
 * `/a/%2e%2e/b` are `/b`), exactly as the WHATWG URL parser does for `http:` URLs.
 * The path must start with `/`.
 *
 * @example
 * ```ts
 * normalisePath('/static/%66eatured'); // '/static/featured'
 * normalisePath('/t/p/../stats');      // '/t/stats'
 * ```
 */
// hot path: a path without `%`, `/.` or `\` is returned as it is, after one pass over its characters
export function normalisePath(path: string): string {
  if (!needsNormalising(path)) return path;
  const escaped = path.indexOf('%') !== -1;
  let normalised = escaped ? path.replace(percentEscape, decodeUnreserved) : path;
  if (normalised.indexOf('\\') !== -1) normalised = normalised.replaceAll('\\', '/');
  if (normalised.indexOf('/.') !== -1) normalised = removeDotSegments(normalised);
  return normalised;
}
