import { Controller, Get } from '@kiln/core';
import { MemoryStore, rateLimit } from '@kiln/rate-limit';

/** Two requests a minute per client, counted in memory (per process, per isolate on Workers). */
@Controller('/limited', rateLimit({ max: 2, windowMs: 60_000, store: new MemoryStore() }))
export class LimitedController {
  @Get('/')
  limited() {
    return { ok: true };
  }
}
