/**
 * `response` with `Connection: close`, for Bun.serve and Deno.serve while the server closes: the
 * client opens its next request elsewhere (Node's listener writes the header itself). A Response
 * whose headers are immutable (one a handler passed on from `fetch`) is copied first.
 */
export function withConnectionClose(response: Response): Response {
  try {
    response.headers.set('connection', 'close');
    return response;
  } catch {
    const copy = new Response(response.body, { status: response.status, statusText: response.statusText, headers: response.headers });
    copy.headers.set('connection', 'close');
    return copy;
  }
}
