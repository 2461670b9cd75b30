// The application's logger when Kiln builds it is built on its first use: loading pino costs a
// start-up about 20 ms on Node 26, and many servers write nothing until a request is logged or
// fails. The options were checked when the server was created, so building it later cannot fail.
import type { LogFn, Logger } from './logger.js';

/** What a level's method is called with (either of LogFn's forms). */
type LogArguments = [fields: object, message?: string, ...args: unknown[]];

/** A Logger that builds the real one (with `build`) the first time it writes or is asked anything. */
export class DeferredLogger implements Logger {
  readonly #build: () => Logger;
  readonly #initialLevel: string;
  #built: Logger | undefined;

  constructor(build: () => Logger, level: string) {
    this.#build = build;
    this.#initialLevel = level;
  }

  #logger(): Logger {
    this.#built ??= this.#build();
    return this.#built;
  }

  get level(): string {
    return this.#built === undefined ? this.#initialLevel : this.#built.level;
  }

  set level(level: string) {
    this.#logger().level = level;
  }

  trace = ((...args: LogArguments) => this.#logger().trace(...args)) as LogFn;
  debug = ((...args: LogArguments) => this.#logger().debug(...args)) as LogFn;
  info = ((...args: LogArguments) => this.#logger().info(...args)) as LogFn;
  warn = ((...args: LogArguments) => this.#logger().warn(...args)) as LogFn;
  error = ((...args: LogArguments) => this.#logger().error(...args)) as LogFn;
  fatal = ((...args: LogArguments) => this.#logger().fatal(...args)) as LogFn;

  child(bindings: Record<string, unknown>): Logger {
    return this.#logger().child(bindings);
  }

  isLevelEnabled(level: string): boolean {
    return this.#logger().isLevelEnabled(level);
  }
}
