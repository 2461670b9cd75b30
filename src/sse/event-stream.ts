// An @Sse() handler's async iterable as a web body stream, pulled one event at a time: the next
// value is asked of the iterator only once the transport took the previous event, so a slow
// client holds at most one event here (plus what the socket buffers). Every transport (Node,
// app.fetch, Bun, Deno, workerd) sends it as it sends any streamed Response.
import { commentLine } from './event-framing.js';
import { eventStreamShutdown } from './open-event-streams.js';

export interface EventStreamControl {
  /** Milliseconds between comment lines while no event comes; 0: none. */
  readonly heartbeat: number;
  /** Milliseconds an event may wait to be taken by the transport before the stream is cut; 0: forever. */
  readonly sendTimeout: number;
  /** Sent first: a comment line, and a `retry:` field when the route sets one. */
  readonly opening: string;
  /** The event text of one yielded value; '' writes nothing. */
  readonly frame: (value: unknown) => string;
  /** The stream ended before the iterator did: the client left, (a TimeoutError) took nothing for sendTimeout, or the server closed. */
  readonly ended: (reason: unknown) => void;
  /** Registers the stream with the server, whose close() calls `end`; returns the removal. */
  readonly join: (end: () => void) => () => void;
}

const encoder = new TextEncoder();
const heartbeatDue = Symbol('heartbeat');

/** Why a stream was cut: its client took nothing for `sendTimeout` ms. */
function sendDeadlinePassed(milliseconds: number): DOMException {
  return new DOMException(`The client took no event for ${milliseconds} ms (sendTimeout): the stream was cut`, 'TimeoutError');
}

export function eventStreamBody(iterator: AsyncIterator<unknown>, control: EventStreamControl): ReadableStream<Uint8Array> {
  let pending: Promise<IteratorResult<unknown>> | undefined;
  let deadline: ReturnType<typeof setTimeout> | undefined;
  let finished = false;
  let leave = () => {};
  const stopIterator = (reason: unknown) => {
    if (finished) return;
    finished = true;
    leave();
    clearTimeout(deadline);
    control.ended(reason);
    // Queued behind a pending next() when the generator is at an await: the ended() signal lets it stop waiting.
    Promise.resolve()
      .then(() => iterator.return?.())
      .catch(() => {});
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(control.opening));
        // close(): the stream ends cleanly (an EventSource reconnects elsewhere) and its generator is closed.
        leave = control.join(() => {
          if (finished) return;
          try {
            controller.close();
          } catch {
            // the transport already errored or closed the stream: only the generator is left to stop
          }
          stopIterator(eventStreamShutdown());
        });
      },
      // Called when the queue is empty, i.e. once the transport took the last chunk.
      async pull(controller) {
        clearTimeout(deadline);
        let text = '';
        while (text === '') {
          pending ??= iterator.next();
          let result: IteratorResult<unknown> | typeof heartbeatDue;
          if (control.heartbeat === 0) result = await pending;
          else {
            let quiet: ReturnType<typeof setTimeout> | undefined;
            const heartbeat = new Promise<typeof heartbeatDue>((resolve) => {
              quiet = setTimeout(resolve, control.heartbeat, heartbeatDue);
            });
            try {
              result = await Promise.race([pending, heartbeat]);
            } finally {
              clearTimeout(quiet);
            }
          }
          if (finished) return;
          if (result === heartbeatDue) text = commentLine;
          else {
            pending = undefined;
            if (result.done) {
              finished = true;
              leave();
              controller.close();
              return;
            }
            text = control.frame(result.value);
          }
        }
        controller.enqueue(encoder.encode(text));
        if (control.sendTimeout > 0) {
          deadline = setTimeout(() => {
            const reason = sendDeadlinePassed(control.sendTimeout);
            controller.error(reason);
            stopIterator(reason);
          }, control.sendTimeout);
        }
      },
      cancel(reason) {
        stopIterator(reason);
      },
    },
    { highWaterMark: 1 },
  );
}
