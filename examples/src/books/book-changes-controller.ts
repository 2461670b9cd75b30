import { Controller, Get, Header, Req, Sse, sseEvent, type KilnRequest, type SseEvent } from '@kiln/core';
import type { BookChange } from './book.js';
import { BookStore } from './book-store.js';

/** The catalogue's changes, pushed to the client as they happen (server-sent events). */
@Controller('/book-changes')
export class BookChangesController {
  constructor(private readonly store: BookStore) {}

  /**
   * Follow the catalogue
   *
   * One event per book added (`event: added`) or removed (`event: removed`), numbered from
   * `Last-Event-ID` on so that a reconnecting `EventSource` carries on counting.
   * @param lastEventId the id of the last event the client received
   */
  @Get('/')
  @Sse({ heartbeat: 15_000 })
  async *follow(@Req() req: KilnRequest, @Header('last-event-id') lastEventId?: number): AsyncGenerator<SseEvent<BookChange>> {
    let sequence = lastEventId ?? 0;
    for await (const change of this.store.changes.subscribe('books', { signal: req.signal })) {
      sequence++;
      yield sseEvent(change, { event: change.kind, id: String(sequence) });
    }
  }
}
