import { kilnError } from '../kiln-error.js';
import type { RequestCore } from '../request/kiln-request.js';
import type { Serializer } from '../response/serializer.js';
import { kAbort, kEventStreams, kSendTimeout } from '../symbols.js';
import { commentLine, frameEvent } from './event-framing.js';
import { eventStreamBody } from './event-stream.js';
import { SseEvent } from './sse-event.js';
import type { EventStreamSettings } from './sse-options.js';

/** The head of every event stream; `no-cache` and `X-Accel-Buffering: no` keep proxies (nginx) from holding events back. */
const eventStreamHeaders = [
  ['content-type', 'text/event-stream'],
  ['cache-control', 'no-cache'],
  ['x-accel-buffering', 'no'],
] as const;

function asyncIteratorOf(value: unknown): AsyncIterator<unknown> | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const open = (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator];
  return typeof open === 'function' ? (open.call(value) as AsyncIterator<unknown>) : undefined;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? `an object (${(value as object).constructor?.name ?? 'no prototype'})` : typeof value;
}

/**
 * The answer of an `@Sse()` route: `text/event-stream`, one event per value its handler's async
 * iterable yields. A string is sent as its text (one `data:` line per line); any other value as
 * the JSON of its projection to the route's event type (`serializer`, written by the build), or
 * of the value itself without one. `undefined` sends nothing. HEAD gets the head alone, and the
 * iterator is closed without being started.
 */
export function eventStreamResponse(
  req: RequestCore,
  settings: EventStreamSettings,
  serializer: Serializer | undefined,
  status: number | undefined,
  value: unknown,
  where: string,
): Response {
  const iterator = asyncIteratorOf(value);
  if (iterator === undefined) throw kilnError('KILN091', 'notIterable', where, kindOf(value));
  const init = { status: status ?? 200, headers: eventStreamHeaders.map(([name, text]) => [name, text] as [string, string]) };
  if (req.method === 'HEAD') {
    Promise.resolve(iterator.return?.()).catch(() => {});
    return new Response(null, init);
  }
  const dataText = (data: unknown): string | undefined => {
    if (data === undefined || typeof data === 'string') return data;
    return serializer === undefined ? JSON.stringify(data) : serializer(data);
  };
  const body = eventStreamBody(iterator, {
    heartbeat: settings.heartbeat,
    sendTimeout: req[kSendTimeout],
    opening: settings.retry === undefined ? commentLine : `:\nretry: ${settings.retry}\n\n`,
    frame: (yielded) => {
      if (yielded instanceof SseEvent) return frameEvent(dataText(yielded.data), yielded.event, yielded.id, yielded.retry);
      const data = dataText(yielded);
      return data === undefined ? '' : frameEvent(data);
    },
    ended: (reason) => req[kAbort](reason),
    join: (end) => req[kEventStreams].add(end),
  });
  return new Response(body, init);
}
