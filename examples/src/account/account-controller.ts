import { Body, Controller, Get, HttpError, Post, Req, csrf, type KilnRequest } from '@kiln/core';
import { rateLimit } from '@kiln/rate-limit';
import { SignJWT } from 'jose';
import { sessions, tokenAudience, tokenSecret } from './sessions.js';

/** A reader's credentials. */
export interface Credentials {
  user: string;
  password: string;
}

// The shop's one demo reader (a real shop would check a password hash in its database).
const readers: Record<string, string> = { ada: process.env.BOOKSHOP_READER_PASSWORD ?? 'reader-password' };

/**
 * Sign-in attempts per client address: 5 **failed** ones per 15 minutes (a successful sign-in is
 * taken back, so a reader who signs in often is never limited); the 6th failure locks the address
 * out for 15 minutes, a right password included. One limiter for the process: every app built in
 * it shares its counts.
 */
export const loginLimit = rateLimit({
  max: 5,
  windowMs: 15 * 60_000,
  skipSuccessfulRequests: true,
  blockDuration: 15 * 60_000,
  standardHeaders: 'draft-8',
  name: 'login',
});

/** Refuses what another site makes a browser send: the account's routes are authenticated by a cookie. */
const sameSiteOnly = csrf();

/**
 * A reader's account: sign-in with a session cookie, and an access token for API clients. Each
 * route that changes state is behind `sameSiteOnly`; sign-in behind `loginLimit` first, so that a
 * refused cross-site attempt counts as a failure and carries the limit's headers too.
 */
@Controller('/account', sessions)
export class AccountController {
  /**
   * Sign in
   *
   * Starts a new session (a new id: one planted before sign-in is worth nothing).
   * @response 401 Wrong user or password
   * @response 403 Cross-site request refused
   */
  @Post('/login', loginLimit, sameSiteOnly)
  login(@Body() credentials: Credentials, @Req() req: KilnRequest) {
    if (readers[credentials.user] === undefined || readers[credentials.user] !== credentials.password)
      throw new HttpError(401, 'Wrong user or password');
    req.session.regenerate();
    req.session.set('reader', credentials.user);
    return { reader: credentials.user };
  }

  /**
   * The signed-in reader
   * @response 401 Not signed in
   */
  @Get('/me')
  me(@Req() req: KilnRequest) {
    const reader = req.session.get('reader');
    if (reader === undefined) throw new HttpError(401, 'Not signed in');
    return { reader };
  }

  /**
   * Sign out
   * @response 403 Cross-site request refused
   */
  @Post('/logout', sameSiteOnly)
  logout(@Req() req: KilnRequest) {
    req.session.destroy();
    return { signedOut: true };
  }

  /**
   * An access token for API clients (15 minutes), for the signed-in reader
   * @response 401 Not signed in
   * @response 403 Cross-site request refused
   */
  @Post('/token', sameSiteOnly)
  async token(@Req() req: KilnRequest) {
    const reader = req.session.get('reader');
    if (reader === undefined) throw new HttpError(401, 'Not signed in');
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(reader)
      .setIssuer(tokenAudience)
      .setAudience(tokenAudience)
      .setIssuedAt()
      .setExpirationTime('15m')
      .sign(new TextEncoder().encode(tokenSecret));
    return { token, expiresIn: 900 };
  }
}
