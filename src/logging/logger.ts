import { InjectionToken } from '../injection/injection-token.js';

/** The levels of a `Logger`, quietest last; `silent` writes nothing. */
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';

/** pino's numbers for each level: what a log line's `level` field holds. */
export const levelValues: Readonly<Record<LogLevel, number>> = Object.freeze({
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Number.POSITIVE_INFINITY,
});

/**
 * One level's method. Like pino: a message with printf-style arguments (`%s`, `%d`, `%j`, `%o`),
 * or an object of fields first (an `Error` is written under `err`), then the message.
 */
export interface LogFn {
  (message: string, ...args: unknown[]): void;
  (fields: object, message?: string, ...args: unknown[]): void;
}

/**
 * What Kiln writes logs through, and what services inject with `@Inject(Logger)`: the part of
 * pino's interface an application uses, so a pino logger is one (`createServer({ logger: pino() })`).
 *
 * @example
 * ```ts
 * @Injectable()
 * class Mailer {
 *   constructor(@Inject(Logger) private readonly log: Logger) {}
 *   send(to: string) { this.log.info({ to }, 'mail sent'); }
 * }
 * ```
 */
export interface Logger {
  /** The quietest level written (`'info'` by default). Assignable. */
  level: string;
  trace: LogFn;
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  fatal: LogFn;
  /** A logger that adds `bindings` to every line it writes. */
  child(bindings: Record<string, unknown>): Logger;
  /** Whether a line at `level` would be written. */
  isLevelEnabled(level: string): boolean;
}

/**
 * The injection token of the application's logger (the one `createServer({ logger })` uses).
 * Registering `Logger` in `injections` gives services another one.
 */
export const Logger: InjectionToken<Logger> = new InjectionToken<Logger>('Logger');

/** Whether `value` can be used as a `Logger` (pino's, Kiln's, or the application's own). */
export function isLogger(value: unknown): value is Logger {
  if (value === null || typeof value !== 'object') return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.info === 'function' &&
    typeof candidate.error === 'function' &&
    typeof candidate.debug === 'function' &&
    typeof candidate.child === 'function'
  );
}
