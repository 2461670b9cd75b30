/** Where a server is in its life, shared by its requests and its health endpoints. */
export interface Lifecycle {
  /** Set when `close()` starts: readiness answers 503 and every answer carries `Connection: close`. */
  closing: boolean;
}
