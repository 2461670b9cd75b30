// The stable HTTP semantic conventions of OpenTelemetry (v1.23 and later) that Kiln writes.

/** `SpanKind.SERVER` and `SpanStatusCode.ERROR` of @opentelemetry/api: fixed by the specification. */
export const spanKindServer = 1;
export const spanStatusError = 2;

/** The histogram's name, unit and buckets, as the conventions give them (seconds). */
export const requestDurationName = 'http.server.request.duration';
export const requestDurationBuckets = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

const knownMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH', 'QUERY']);

/** `http.request.method`: a known method as it is, any other as `_OTHER` (so a client cannot grow the cardinality). */
export function semanticMethod(method: string): string {
  return knownMethods.has(method) ? method : '_OTHER';
}

/** The span's name: `METHOD /route/:template`, `METHOD` alone without a route, `HTTP` for an unknown method. */
export function spanName(method: string, route: string | undefined): string {
  const named = method === '_OTHER' ? 'HTTP' : method;
  return route === undefined ? named : `${named} ${route}`;
}

/** `server.port` from a `Host` header, or the scheme's default port. */
export function hostPort(host: string | null, scheme: 'http' | 'https'): number {
  const fallback = scheme === 'https' ? 443 : 80;
  if (host === null) return fallback;
  const colon = host.lastIndexOf(':');
  // `[::1]` has colons of its own: a port follows the closing bracket.
  if (colon === -1 || colon < host.lastIndexOf(']')) return fallback;
  const port = Number(host.slice(colon + 1));
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : fallback;
}

/** `error.type` of an exception: its class name (`TypeError`), `Error` when it has none. */
export function exceptionType(error: unknown): string {
  const name = (error as { constructor?: { name?: unknown } } | null)?.constructor?.name;
  return typeof name === 'string' && name !== '' && name !== 'Object' ? name : 'Error';
}
