import type { OpenEventStreams } from '../sse/open-event-streams.js';

/** Where a server is in its life, shared by its requests and its health endpoints. */
export interface Lifecycle {
  /** Set when `close()` starts: readiness answers 503 and every answer carries `Connection: close`. */
  closing: boolean;
  /** The open @Sse() streams, ended by `close()` when it stops accepting. */
  readonly eventStreams: OpenEventStreams;
}
