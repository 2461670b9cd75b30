import { Controller, Get, Req, type KilnRequest } from '@kiln/core';
import { requireReaderToken } from './sessions.js';

/** A reader's orders, for API clients with a bearer token (POST /account/token). */
@Controller('/orders', requireReaderToken)
export class OrdersController {
  /**
   * The reader's orders
   * @response 401 A valid bearer token (JWT) is required
   */
  @Get('/')
  list(@Req() req: KilnRequest) {
    return { reader: req.claims.sub, orders: [] as { bookId: number; quantity: number }[] };
  }
}
