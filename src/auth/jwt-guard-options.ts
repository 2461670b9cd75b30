import { kilnError } from '../kiln-error.js';

/** The algorithms `jwtGuard` verifies. `none` is not one of them, whatever the options say. */
export const hmacAlgorithms = ['HS256', 'HS384', 'HS512'] as const;
export const keyAlgorithms = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'] as const;
export type JwtAlgorithm = (typeof hmacAlgorithms)[number] | (typeof keyAlgorithms)[number];

/** Where `jwtGuard` gets a remote JSON Web Key Set, and how it caches it. */
export interface JwksOptions {
  readonly url: string | URL;
  /** How long a fetched set is used before it is fetched again, in ms. Default 600,000. */
  readonly cacheMaxAge?: number;
  /**
   * After a fetch, how long a token whose `kid` the set lacks waits before the set is fetched
   * again (a rotation), in ms. Default 30,000: a flood of made-up `kid`s costs one fetch per 30 s.
   */
  readonly cooldownDuration?: number;
  /** How long a fetch may take, in ms. Default 5,000. */
  readonly timeoutDuration?: number;
}

/** The options of `jwtGuard`. */
export interface JwtGuardOptions {
  /**
   * The algorithms accepted, required: a token signed with any other is refused, so an HS256
   * token cannot pass where RS256 is expected (the "algorithm confusion" attack), and `none`
   * never passes.
   */
  readonly algorithms: readonly JwtAlgorithm[];
  /** The shared secret of HS256/384/512 (at least 32 characters or bytes). */
  readonly secret?: string | Uint8Array;
  /** The public key of RS*, PS*, ES*, EdDSA: a PEM (`-----BEGIN PUBLIC KEY-----`) or a public JWK. */
  readonly publicKey?: string | Readonly<Record<string, unknown>>;
  /** A remote JWKS (an identity provider's `jwks_uri`), cached and refetched on rotation. */
  readonly jwks?: JwksOptions;
  /** Accepted `iss` values. */
  readonly issuer?: string | readonly string[];
  /** Accepted `aud` values (the token must name one of them). */
  readonly audience?: string | readonly string[];
  /** Seconds of clock difference allowed on `exp`, `nbf` and `iat`. Default 5. */
  readonly clockTolerance?: number;
  /** Refuse tokens issued (`iat`) longer ago than this many seconds. */
  readonly maxTokenAge?: number;
  /** Claims every token must have (`['sub']`); `exp` is always required. */
  readonly requiredClaims?: readonly string[];
  /** The security scheme's name in the OpenAPI document. Default `bearerAuth`. */
  readonly schemeName?: string;
}

const knownAlgorithms = new Set<string>([...hmacAlgorithms, ...keyAlgorithms]);

/** The options checked at start-up (KILN086 names the problem). */
export function checkJwtOptions(options: JwtGuardOptions): void {
  if (options === null || typeof options !== 'object') throw kilnError('KILN086', 'jwtOptions');
  const algorithms = options.algorithms;
  if (!Array.isArray(algorithms) || algorithms.length === 0) throw kilnError('KILN086', 'noAlgorithms');
  for (const alg of algorithms) {
    if (String(alg).toLowerCase() === 'none') throw kilnError('KILN086', 'noneAlgorithm');
    if (!knownAlgorithms.has(alg)) throw kilnError('KILN086', 'unknownAlgorithm', alg, [...knownAlgorithms].join(', '));
  }
  const wantsHmac = algorithms.some((alg) => alg.startsWith('HS'));
  const wantsKey = algorithms.some((alg) => !alg.startsWith('HS'));
  if (wantsHmac && options.secret === undefined)
    throw kilnError('KILN086', 'noSecret', algorithms.filter((a) => a.startsWith('HS')).join(', '));
  if (options.secret !== undefined) {
    const length =
      typeof options.secret === 'string' ? options.secret.length : options.secret instanceof Uint8Array ? options.secret.length : -1;
    if (length < 32) throw kilnError('KILN086', 'shortSecret');
    if (!wantsHmac) throw kilnError('KILN086', 'secretWithoutHmac');
  }
  if (wantsKey && options.publicKey === undefined && options.jwks === undefined)
    throw kilnError('KILN086', 'noPublicKey', algorithms.filter((a) => !a.startsWith('HS')).join(', '));
  if (options.publicKey !== undefined && options.jwks !== undefined) throw kilnError('KILN086', 'keyAndJwks');
  if (options.jwks !== undefined) {
    try {
      const url = new URL(String(options.jwks.url));
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error();
    } catch {
      throw kilnError('KILN086', 'jwksUrl', String(options.jwks?.url));
    }
  }
  const tolerance = options.clockTolerance;
  if (tolerance !== undefined && !(Number.isFinite(tolerance) && tolerance >= 0)) throw kilnError('KILN086', 'clockTolerance');
}
