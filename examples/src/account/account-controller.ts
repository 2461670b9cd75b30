import { Body, Controller, Get, HttpError, Post, Req, csrf, type KilnRequest } from '@kiln/core';
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
 * A reader's account: sign-in with a session cookie, and an access token for API clients. The
 * routes are authenticated by a cookie, so csrf() refuses what another site makes a browser send.
 */
@Controller('/account', sessions, csrf())
export class AccountController {
  /**
   * Sign in
   *
   * Starts a new session (a new id: one planted before sign-in is worth nothing).
   * @response 401 Wrong user or password
   * @response 403 Cross-site request refused
   */
  @Post('/login')
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
  @Post('/logout')
  logout(@Req() req: KilnRequest) {
    req.session.destroy();
    return { signedOut: true };
  }

  /**
   * An access token for API clients (15 minutes), for the signed-in reader
   * @response 401 Not signed in
   * @response 403 Cross-site request refused
   */
  @Post('/token')
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
