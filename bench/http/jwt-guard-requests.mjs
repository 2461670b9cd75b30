// What both JWT-guard benchmarks send and check before timing (jwt-guard.bench.mjs, a server at a
// time; jwt-guard-interleaved.mjs, interleaved slots): one definition, so that the two methods
// time the same requests against the same answer.
import { SignJWT } from 'jose';

/** The secret the guarded servers are started with (`--jwt <secret>`). */
export const jwtSecret = 'a-benchmark-secret-of-at-least-32-characters';
/** Route (b), whose JSON every server answers. */
export const path = '/users/42?active=true&tags=a&tags=b';
export const plainHeaders = { 'x-request-id': 'abc' };
const token = await new SignJWT({ scope: 'read' })
  .setProtectedHeader({ alg: 'HS256' })
  .setSubject('user-42')
  .setExpirationTime('2h')
  .sign(new TextEncoder().encode(jwtSecret));
/** Route (b)'s headers with a valid HS256 bearer token. */
export const tokenHeaders = { ...plainHeaders, authorization: `Bearer ${token}` };
const expected = JSON.stringify({ id: 42, active: true, tags: ['a', 'b'], requestId: 'abc' });

/** Throws unless the server on `port` answers (b)'s JSON with `headers` and, when `guarded`, 401 without a token. */
export async function checkJwtServer(port, { headers, guarded, name }) {
  const ok = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
  const text = await ok.text();
  if (ok.status !== 200 || JSON.stringify(JSON.parse(text)) !== expected) throw new Error(`${name}: ${ok.status} ${text}`);
  if (guarded) {
    const refused = await fetch(`http://127.0.0.1:${port}${path}`, { headers: plainHeaders });
    await refused.arrayBuffer();
    if (refused.status !== 401) throw new Error(`${name}: a request without a token answered ${refused.status}`);
  }
}
