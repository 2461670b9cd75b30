/**
 * The claims of a verified JWT (`req.claims`): the registered ones here, the application's own
 * declared by declaration merging.
 *
 * @example
 * ```ts
 * declare module '@kiln/core' {
 *   interface JwtClaims { sub: string; scope: string }
 * }
 * ```
 */
export interface JwtClaims {
  iss?: string;
  sub?: string;
  aud?: string | string[];
  exp?: number;
  nbf?: number;
  iat?: number;
  jti?: string;
}
