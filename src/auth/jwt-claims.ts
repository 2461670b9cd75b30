/** The registered claims of RFC 7519, each optional: what every verified token may carry. */
export interface RegisteredClaims {
  iss?: string;
  sub?: string;
  aud?: string | string[];
  exp?: number;
  nbf?: number;
  iat?: number;
  jti?: string;
}

/**
 * The application's own claims of a verified JWT, by declaration merging (a registered claim may
 * be declared again, narrower: `sub: string`). `req.claims` is `RegisteredClaims & JwtClaims`.
 *
 * @example
 * ```ts
 * declare module '@kiln/core' {
 *   interface JwtClaims { sub: string; scope: string }
 * }
 * ```
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by the application's declaration merging
export interface JwtClaims {}

/** What `req.claims` holds. */
export type VerifiedClaims = RegisteredClaims & JwtClaims;
