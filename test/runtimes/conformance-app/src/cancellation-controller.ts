import { Controller, Get, HandlerTimeout, Query, Req, type KilnRequest } from '@kiln/core';

/** How the last cancellable call ended, per process (per isolate on Workers). */
let lastOutcome: { upstream?: string; reason?: string } = {};

/** `req.signal` on each runtime: a fetch to an upstream cancelled with it, and a handler past its deadline. */
@Controller('/cancel')
export class CancellationController {
  /** Calls `url` (a local upstream that never answers) with req.signal: the client leaving cancels it. */
  @Get('/upstream')
  async upstream(@Query('url') url: string, @Req() req: KilnRequest) {
    lastOutcome = {};
    try {
      await fetch(url, { signal: req.signal });
      lastOutcome.upstream = 'answered';
    } catch (error) {
      lastOutcome = { upstream: (error as Error).name, reason: (req.signal.reason as Error | undefined)?.name };
    }
    return lastOutcome;
  }

  /** Waits for its signal, which its 100 ms deadline aborts. */
  @Get('/deadline')
  @HandlerTimeout(100)
  async deadline(@Req() req: KilnRequest) {
    lastOutcome = {};
    const reason = await new Promise<unknown>((resolve) => req.signal.addEventListener('abort', () => resolve(req.signal.reason)));
    lastOutcome = { reason: (reason as Error).name };
    return lastOutcome;
  }

  @Get('/last')
  last() {
    return lastOutcome;
  }
}
