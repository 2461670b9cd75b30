import { Controller, Get, Header, Req, Sse, sseEvent, type KilnRequest, type SseEvent } from '@kiln/core';

interface Quote {
  symbol: string;
  price: number;
}

/** How the last endless or flooding stream ended, per process (per isolate on Workers). */
let lastClose: { stream?: string; aborted?: boolean; produced?: number; signalled?: boolean } = {};

/** Server-sent events on each runtime: framing, typed filtering, and the generator closed when the client leaves or stops reading. */
@Controller('/events')
export class EventsController {
  @Get('/quotes')
  @Sse({ heartbeat: 0 })
  async *quotes(@Header('last-event-id') last?: number): AsyncGenerator<Quote | SseEvent<Quote>> {
    yield { symbol: 'KLN', price: 1.5, internal: 'never sent' } as Quote;
    yield sseEvent({ symbol: 'ÉTÉ ✓ 🚀', price: (last ?? 0) + 2 }, { event: 'quote', id: '7', retry: 1500 });
  }

  @Get('/text')
  @Sse({ heartbeat: 0, retry: 500 })
  async *text(): AsyncGenerator<string> {
    yield 'line 1\nline 2\r\nline 3\rline 4';
    yield 'ünïcödé ✓ 🚀';
  }

  @Get('/endless')
  @Sse({ heartbeat: 60_000 })
  async *endless(@Req() req: KilnRequest): AsyncGenerator<Quote> {
    lastClose = {};
    // Told at once, even where the platform never resumes the generator's pending timer (workerd).
    req.signal.addEventListener('abort', () => {
      lastClose = { ...lastClose, signalled: true };
    });
    try {
      for (let price = 1; ; price++) {
        yield { symbol: 'KLN', price };
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    } finally {
      lastClose = { ...lastClose, stream: 'endless', aborted: req.signal.aborted };
    }
  }

  @Get('/flood')
  @Sse({ heartbeat: 0 })
  async *flood(@Req() req: KilnRequest): AsyncGenerator<string> {
    lastClose = {};
    const block = 'x'.repeat(64 * 1024);
    let produced = 0;
    try {
      for (;;) {
        produced++;
        yield block;
      }
    } finally {
      lastClose = { stream: 'flood', aborted: req.signal.aborted, produced };
    }
  }

  @Get('/last-close')
  closed() {
    return lastClose;
  }
}
