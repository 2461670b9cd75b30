/**
 * The string or bytes a web `Response` was constructed with (`new Response(csv)`, `Response.json(v)`),
 * when Node's fetch implementation (undici) still holds them and the body was not read: then the
 * writer sends them in one `end` instead of reading the body's stream.
 *
 * hot path (a returned `Response`): reading the web stream of a small body cost ~3× the whole
 * request of a plain value in the bench's mixed traffic (stream reader promises, undici's pull,
 * transferable objects). undici keeps a constructed body's source under its `state` symbol; the
 * symbol is looked up once, and where a Node version keeps it elsewhere nothing is found and the
 * stream is read as before.
 */
let stateSymbol: symbol | undefined;
let supported: boolean | undefined;

/** Looked up on first use, not at import: workerd refuses to construct a Response in a module's global scope. */
function probe(): boolean {
  stateSymbol = Object.getOwnPropertySymbols(new Response('kiln')).find((symbol) => symbol.description === 'state');
  return stateSymbol !== undefined && sourceOf(new Response('kiln')) === 'kiln';
}

function sourceOf(response: Response): unknown {
  return (response as unknown as Record<symbol, { body?: { source?: unknown } | null } | undefined>)[stateSymbol!]?.body?.source;
}

export function responseSource(response: Response): string | Uint8Array | undefined {
  if (!(supported ??= probe()) || response.bodyUsed) return undefined;
  const source = sourceOf(response);
  return typeof source === 'string' || source instanceof Uint8Array ? source : undefined;
}
