/**
 * What carries a {@link TopicHub}'s messages between processes. The hub calls `subscribe` when a
 * topic gets its first local subscriber and `unsubscribe` when it loses its last; every message a
 * process publishes comes back to each subscribed process (the publisher's own included) through
 * the `deliver` function given to `start`. Payloads are JSON text. `redisTransport` is the one
 * Kiln ships; without a transport a hub delivers in-process.
 */
export interface HubTransport {
  /** Called once, when the hub is created: where messages from every process arrive. */
  start(deliver: (topic: string, payload: string) => void): void;
  publish(topic: string, payload: string): Promise<void>;
  subscribe(topic: string): Promise<void>;
  unsubscribe(topic: string): Promise<void>;
  /** Stops delivering; the clients given to the transport stay the application's to close. */
  close(): Promise<void>;
}
