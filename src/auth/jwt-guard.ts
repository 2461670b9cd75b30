import { HttpError } from '../http-error.js';
import { KilnError, kilnError } from '../kiln-error.js';
import type { MiddlewareFunction } from '../middleware.js';
import { describeMiddleware } from '../openapi/middleware-description.js';
import type { KilnRequest } from '../request/kiln-request.js';
import { kClaims } from '../symbols.js';
import { checkJwtOptions, type JwtGuardOptions } from './jwt-guard-options.js';
import { errorBodyContent } from './guard-responses.js';

type Jose = typeof import('jose');
type VerifyKey = Parameters<Jose['jwtVerify']>[1];

// jose is an optional peer: loaded on the first request a guard verifies, never by @kiln/core itself.
let jose: Promise<Jose> | undefined;
function loadJose(): Promise<Jose> {
  return (jose ??= import('jose').catch((error: unknown) => {
    jose = undefined;
    throw kilnError('KILN087', 'noJose', String((error as Error)?.message ?? error).slice(0, 200));
  }));
}

/** What each jose failure tells the client: never more than which check failed. */
function refusal(error: unknown): HttpError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return new HttpError(401, 'The token has expired');
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED': {
      const claim = String((error as { claim?: unknown }).claim ?? 'a');
      return new HttpError(401, claim === 'nbf' ? 'The token is not valid yet' : `The token's ${claim} claim is not accepted`);
    }
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return new HttpError(401, "The token's algorithm is not accepted");
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return new HttpError(401, "The token's signature is invalid");
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return new HttpError(401, 'No key of the issuer matches the token');
    case 'ERR_JWS_INVALID':
    case 'ERR_JWT_INVALID':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return new HttpError(401, 'The token is malformed');
    case 'ERR_JWKS_TIMEOUT':
    case 'ERR_JWKS_INVALID':
      return new HttpError(503, 'The keys that verify tokens cannot be fetched now');
    default:
      return undefined;
  }
}

const bearerPrefix = /^Bearer +/i;
// A compact JWS: three base64url parts. Anything else is refused before jose sees it.
const compactJws = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const longestToken = 8192;

/**
 * A guard that lets a request through only with a valid JWT in `Authorization: Bearer <token>`,
 * verified with `jose` (an optional peer dependency: `npm install jose`). The token's algorithm
 * must be in `algorithms` (`none` never is); its signature must hold under the `secret` (HS*),
 * the `publicKey`, or a key of the remote `jwks` (cached; fetched again when a token names an
 * unknown `kid`: rotation); `exp` is required and, with `nbf` and `iat`, checked with
 * `clockTolerance`; `iss` and `aud` must be among `issuer` and `audience` when given. The
 * verified claims are on `req.claims`, typed by the application's `JwtClaims`. A refused request
 * answers 401 with `WWW-Authenticate: Bearer` and the failed check (`The token has expired`).
 * The served OpenAPI document gets its bearer security scheme (the docs page's Authorize button).
 *
 * @example
 * ```ts
 * const requireUser = jwtGuard({
 *   algorithms: ['RS256'],
 *   jwks: { url: 'https://id.example.com/.well-known/jwks.json' },
 *   issuer: 'https://id.example.com/',
 *   audience: 'api://orders',
 * });
 *
 * @Controller('/orders', requireUser)
 * class OrdersController {
 *   @Get('/') list(@Req() req: KilnRequest) { return orders.of(req.claims.sub); }
 * }
 * ```
 */
export function jwtGuard(options: JwtGuardOptions): MiddlewareFunction {
  checkJwtOptions(options);
  const algorithms = [...options.algorithms];
  const verifyOptions = {
    algorithms,
    issuer: options.issuer === undefined ? undefined : typeof options.issuer === 'string' ? options.issuer : [...options.issuer],
    audience: options.audience === undefined ? undefined : typeof options.audience === 'string' ? options.audience : [...options.audience],
    clockTolerance: options.clockTolerance ?? 5,
    maxTokenAge: options.maxTokenAge,
    requiredClaims: ['exp', ...(options.requiredClaims ?? [])],
  };
  const secret = typeof options.secret === 'string' ? new TextEncoder().encode(options.secret) : options.secret;
  const schemeName = options.schemeName ?? 'bearerAuth';
  const remoteKeys = options.jwks !== undefined;

  // The verifier is made once, when jose is loaded: imported keys and the JWKS cache live in it.
  let verifier: Promise<(token: string) => Promise<unknown>> | undefined;
  const makeVerifier = async () => {
    const lib = await loadJose();
    const keys = new Map<string, Promise<VerifyKey>>();
    const publicKey = options.publicKey;
    const remote =
      options.jwks === undefined
        ? undefined
        : lib.createRemoteJWKSet(new URL(String(options.jwks.url)), {
            cacheMaxAge: options.jwks.cacheMaxAge ?? 600_000,
            cooldownDuration: options.jwks.cooldownDuration ?? 30_000,
            timeoutDuration: options.jwks.timeoutDuration ?? 5_000,
          });
    const keyFor = (alg: string): Promise<VerifyKey> => {
      let key = keys.get(alg);
      if (key === undefined) {
        key =
          typeof publicKey === 'string'
            ? lib.importSPKI(publicKey, alg)
            : (lib.importJWK(publicKey as Parameters<Jose['importJWK']>[0], alg) as Promise<VerifyKey>);
        keys.set(alg, key);
      }
      return key;
    };
    return async (token: string) => {
      const getKey = async (header: { alg?: string }, jws: unknown) => {
        const alg = header.alg ?? '';
        // Each key serves its own family only: a secret never verifies an RS token, nor a public key an HS one.
        if (alg.startsWith('HS')) return secret!;
        if (remote !== undefined) return remote(header as never, jws as never);
        return keyFor(alg);
      };
      const result = await lib.jwtVerify(token, getKey as never, verifyOptions);
      return result.payload;
    };
  };

  const guard = async (req: KilnRequest) => {
    const authorization = req.headers.get('authorization');
    if (authorization === null || !bearerPrefix.test(authorization)) {
      req.setResponseHeader('www-authenticate', 'Bearer');
      throw new HttpError(401, 'A bearer token is required');
    }
    const token = authorization.replace(bearerPrefix, '').trim();
    if (token.length > longestToken || !compactJws.test(token)) {
      req.setResponseHeader('www-authenticate', 'Bearer error="invalid_token"');
      throw new HttpError(401, 'The token is malformed');
    }
    let claims: unknown;
    try {
      verifier ??= makeVerifier().catch((error: unknown) => {
        verifier = undefined;
        throw error;
      });
      claims = await (await verifier)(token);
    } catch (error) {
      const refused = refusal(error);
      if (refused === undefined) {
        // a JWKS that cannot be reached: the server's problem, reported, not the token's
        if (error instanceof KilnError) throw error;
        const code = String((error as { code?: unknown } | null)?.code ?? '');
        // jose's generic error here is the set's fetch answering other than 200; a TypeError, fetch failing
        if (remoteKeys && (code.startsWith('ERR_JWKS') || code === 'ERR_JOSE_GENERIC' || error instanceof TypeError))
          throw new HttpError(503, 'The keys that verify tokens cannot be fetched now');
        throw new HttpError(401, 'The token is malformed');
      }
      if (refused.status === 401) req.setResponseHeader('www-authenticate', 'Bearer error="invalid_token"');
      throw refused;
    }
    (req as { [kClaims]?: unknown })[kClaims] = claims;
    return undefined;
  };

  return describeMiddleware(guard, {
    security: { [schemeName]: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    responses: {
      401: { description: 'A valid bearer token (JWT) is required', content: errorBodyContent('Unauthorized') },
      ...(remoteKeys
        ? { 503: { description: 'The keys that verify tokens cannot be fetched now', content: errorBodyContent('Service Unavailable') } }
        : {}),
    },
  });
}
