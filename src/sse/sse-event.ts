import { kilnError } from '../kiln-error.js';

/** The fields of one server-sent event besides its data. */
export interface SseEventFields {
  /** The event's type: `addEventListener(event, ...)` on an `EventSource` receives it (without it, `onmessage`). One line. */
  readonly event?: string;
  /** The event's id: the client sends the last one it received as `Last-Event-ID` when it reconnects. One line, no NUL. */
  readonly id?: string;
  /** Milliseconds the client waits before it reconnects, from this event on (a whole number, 0 or more). */
  readonly retry?: number;
}

/**
 * One event of an `@Sse()` route with its `event`, `id` or `retry` fields: yield
 * `sseEvent(data, fields)` where a plain value would be sent with none. Its data is projected
 * to the route's event type like any yielded value.
 */
export class SseEvent<T> implements SseEventFields {
  readonly event?: string;
  readonly id?: string;
  readonly retry?: number;

  constructor(
    readonly data: T,
    fields: SseEventFields = {},
  ) {
    if (fields === null || typeof fields !== 'object') throw kilnError('KILN090', 'fields');
    const { event, id, retry } = fields;
    if (event !== undefined) this.event = oneLine('event', event, /[\r\n]/);
    if (id !== undefined) this.id = oneLine('id', id, /[\r\n\0]/);
    if (retry !== undefined) {
      if (!Number.isInteger(retry) || retry < 0) throw kilnError('KILN090', 'retry', retry);
      this.retry = retry;
    }
    Object.freeze(this);
  }
}

function oneLine(field: string, value: unknown, forbidden: RegExp): string {
  if (typeof value !== 'string') throw kilnError('KILN090', 'notAString', field, value === null ? 'null' : typeof value);
  if (forbidden.test(value))
    throw kilnError('KILN090', 'lineBreak', field, JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value));
  return value;
}

/**
 * An event with fields, for an `@Sse()` route to yield.
 *
 * @example
 * ```ts
 * yield sseEvent({ price: 101.5 }, { event: 'price', id: String(sequence) });
 * ```
 */
export function sseEvent<T>(data: T, fields?: SseEventFields): SseEvent<T> {
  return new SseEvent(data, fields);
}

/**
 * The data type of an event stream's events: what an async iterable yields, `SseEvent<T>`
 * unwrapped to `T`. The build names a route's event type with it.
 */
export type SseData<I> = I extends AsyncIterable<infer E> ? (E extends SseEvent<infer D> ? D : E) : never;
