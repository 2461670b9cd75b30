import { CookieSessionStore, jwtGuard, session } from '@kiln/core';

declare module '@kiln/core' {
  /** What the bookshop keeps in a reader's session. */
  interface SessionData {
    reader: string;
  }
  /** The claims of the bookshop's own access tokens. */
  interface JwtClaims {
    sub: string;
  }
}

// Development defaults, so that `npm start` works as it is; set real secrets in production.
const sessionSecret = process.env.BOOKSHOP_SESSION_SECRET ?? 'a-development-session-secret-change-me!';
export const tokenSecret = process.env.BOOKSHOP_JWT_SECRET ?? 'a-development-jwt-secret-change-me-now!!';
export const tokenAudience = 'bookshop';

/**
 * Sessions sealed in their cookie (AES-GCM): no server state, so the same app runs on Node and as
 * a Worker. An eight-hour session, renewed by every request.
 */
export const sessions = session({ secrets: [sessionSecret], store: new CookieSessionStore(), maxAge: 8 * 60 * 60 });

/** Routes for API clients: a bearer token issued by POST /account/token, HS256. */
export const requireReaderToken = jwtGuard({ algorithms: ['HS256'], secret: tokenSecret, audience: tokenAudience, issuer: tokenAudience });
