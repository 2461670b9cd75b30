// pino is an optional peer dependency: loaded on first use, synchronously (createServer is
// synchronous), through the runtime's own module loader, and never imported at the top of a
// module, so an application without pino (or a runtime without CommonJS) loads nothing extra.
import { JsonLogger, type LogDestination } from './json-logger.js';
import { type LogLevel, type Logger, levelValues } from './logger.js';
import { kilnError } from '../kiln-error.js';
import { DeferredLogger } from './deferred-logger.js';

/** How Kiln builds the application's logger when it is not given one. */
export interface LoggerOptions {
  /** The quietest level written. Default `'info'` (`'debug'` with `createServer({ debug: true })`). */
  level?: LogLevel;
  /** Where lines go. Default standard output. */
  destination?: LogDestination;
  /** Use pino when it is installed. Default true; false always uses Kiln's JSON writer. */
  pino?: boolean;
}

type PinoFactory = (options: { level: string }, destination?: LogDestination) => Logger;

let pinoFactory: PinoFactory | null | undefined;

/** The installed pino, or `null`. Resolved once. */
function loadPino(): PinoFactory | null {
  if (pinoFactory !== undefined) return pinoFactory;
  pinoFactory = null;
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const module = proc?.getBuiltinModule?.('node:module') as { createRequire(from: string): (id: string) => unknown } | undefined;
    const loaded = module?.createRequire(import.meta.url)('pino') as PinoFactory | { default?: PinoFactory } | undefined;
    const factory = typeof loaded === 'function' ? loaded : loaded?.default;
    if (typeof factory === 'function') pinoFactory = factory;
  } catch {
    // not installed: Kiln's JSON writer is used
  }
  return pinoFactory;
}

/**
 * The logger Kiln builds: pino when it is installed (an optional peer dependency), else a small
 * JSON writer with pino's line format. Both write one JSON object per line.
 *
 * @example
 * ```ts
 * const log = createLogger({ level: 'debug' });
 * log.child({ job: 'import' }).info({ rows: 120 }, 'imported');
 * ```
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = checkedLevel(options);
  return buildLogger(level, options.destination, options.pino);
}

/**
 * `createLogger(options)`'s logger, checked now and built on its first use: the logger a server
 * builds for itself (see deferred-logger.ts).
 */
export function createDeferredLogger(options: LoggerOptions = {}): Logger {
  const level = checkedLevel(options);
  const { destination, pino } = options;
  return new DeferredLogger(() => buildLogger(level, destination, pino), level);
}

/** The level `options` asks for; KILN007 for options that are not an object or an unknown level. */
function checkedLevel(options: LoggerOptions): LogLevel {
  if (options === null || typeof options !== 'object') throw kilnError('KILN007', 'loggerOptions', options);
  const level = options.level ?? 'info';
  if (!Object.hasOwn(levelValues, level)) throw kilnError('KILN007', 'loggerLevel', Object.keys(levelValues).join(', '), level);
  return level;
}

function buildLogger(level: LogLevel, destination: LogDestination | undefined, usePino: boolean | undefined): Logger {
  const pino = usePino === false ? null : loadPino();
  if (pino !== null) return pino({ level }, destination);
  return new JsonLogger({ level, destination });
}
