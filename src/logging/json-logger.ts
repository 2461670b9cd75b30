// The logger Kiln writes through when pino is not installed: one JSON object per line, with
// pino's field names and level numbers, so the same log tooling reads both.
import { type LogFn, type LogLevel, type Logger, levelValues } from './logger.js';

/** Where log lines go: anything with `write(line)` (a stream, `process.stdout`, an array in a test). */
export interface LogDestination {
  write(line: string): unknown;
}

const methods = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

/** `%s %d %i %f %j %o %O %%` in `message`, as pino formats them; extra arguments are ignored. */
function formatMessage(message: string, args: readonly unknown[]): string {
  if (args.length === 0 || !message.includes('%')) return message;
  let next = 0;
  return message.replace(/%([sdifjoO%])/g, (whole, kind: string) => {
    if (kind === '%') return '%';
    if (next >= args.length) return whole;
    const value = args[next++];
    switch (kind) {
      case 's':
        return String(value);
      case 'd':
        return String(Number(value));
      case 'i':
        return String(Number.parseInt(String(value), 10));
      case 'f':
        return String(Number.parseFloat(String(value)));
      default:
        return safeJson(value);
    }
  });
}

/** An Error as pino's standard serialiser writes it. */
function serializeError(error: Error): Record<string, unknown> {
  const out: Record<string, unknown> = { type: error.constructor?.name ?? 'Error', message: error.message, stack: error.stack };
  for (const key of Object.keys(error)) if (!(key in out)) out[key] = (error as unknown as Record<string, unknown>)[key];
  if (error.cause !== undefined) out.cause = error.cause instanceof Error ? serializeError(error.cause) : error.cause;
  return out;
}

/** JSON that never throws: cycles become "[Circular]", bigints strings, errors their fields. */
function safeJson(value: unknown): string {
  const seen = new WeakSet<object>();
  return (
    JSON.stringify(value, (_key, item: unknown) => {
      if (typeof item === 'bigint') return item.toString();
      if (item instanceof Error) return serializeError(item);
      if (item !== null && typeof item === 'object') {
        if (seen.has(item)) return '[Circular]';
        seen.add(item);
      }
      return item;
    }) ?? 'null'
  );
}

/** The body of a line, `{` and `}` excepted: `"key":value,` for every field. */
function fieldsText(fields: Record<string, unknown>): string {
  let text = '';
  for (const key in fields) {
    const value = fields[key];
    if (value === undefined || typeof value === 'function') continue;
    let json: string;
    try {
      json = value instanceof Error ? safeJson(serializeError(value)) : JSON.stringify(value);
    } catch {
      json = safeJson(value);
    }
    if (json !== undefined) text += `${JSON.stringify(key)}:${json},`;
  }
  return text;
}

interface Shared {
  level: number;
  levelName: string;
  readonly destination: LogDestination;
  readonly base: string;
}

/**
 * A small pino-compatible logger: levels, child loggers, structured fields, one JSON line per
 * call: `{"level":30,"time":…,"pid":…,…bindings,…fields,"msg":"…"}`.
 */
export class JsonLogger implements Logger {
  readonly #shared: Shared;
  /** The bindings of this logger and its parents, already as `"key":value,` text. */
  readonly #bindings: string;

  declare trace: LogFn;
  declare debug: LogFn;
  declare info: LogFn;
  declare warn: LogFn;
  declare error: LogFn;
  declare fatal: LogFn;

  constructor(
    options: { level?: LogLevel; destination?: LogDestination; base?: Record<string, unknown> } = {},
    shared?: Shared,
    bindings = '',
  ) {
    const level = options.level ?? 'info';
    this.#shared = shared ?? {
      level: levelValues[level],
      levelName: level,
      destination: options.destination ?? defaultDestination(),
      base: fieldsText(options.base ?? defaultBase()),
    };
    this.#bindings = bindings;
  }

  get level(): string {
    return this.#shared.levelName;
  }

  set level(name: string) {
    const value = levelValues[name as LogLevel];
    if (value === undefined) throw new TypeError(`Unknown log level '${name}': one of ${Object.keys(levelValues).join(', ')}`);
    this.#shared.level = value;
    this.#shared.levelName = name;
  }

  isLevelEnabled(level: string): boolean {
    const value = levelValues[level as LogLevel];
    return value !== undefined && value !== Number.POSITIVE_INFINITY && value >= this.#shared.level;
  }

  child(bindings: Record<string, unknown>): Logger {
    return new JsonLogger({}, this.#shared, this.#bindings + fieldsText(bindings));
  }

  /** Writes one line; never throws (a destination that throws loses the line, not the request). */
  write(value: number, first: unknown, rest: readonly unknown[]): void {
    if (value < this.#shared.level) return;
    let fields = '';
    let message: unknown;
    let args = rest;
    if (typeof first === 'string') message = first;
    else {
      if (first instanceof Error) {
        fields = `"err":${safeJson(serializeError(first))},`;
        message = rest.length > 0 ? rest[0] : first.message;
      } else if (first !== null && typeof first === 'object') {
        fields = fieldsText(first as Record<string, unknown>);
        message = rest[0];
      } else message = first;
      args = rest.slice(1);
    }
    let line = `{"level":${value},"time":${Date.now()},${this.#shared.base}${this.#bindings}${fields}`;
    line += message === undefined ? '' : `"msg":${JSON.stringify(formatMessage(String(message), args))},`;
    try {
      this.#shared.destination.write(`${line.slice(0, -1)}}\n`);
    } catch {
      // a logger must not turn a full disk into failed requests
    }
  }
}

for (const method of methods) {
  const value = levelValues[method];
  Object.defineProperty(JsonLogger.prototype, method, {
    value: function (this: JsonLogger, first: unknown, ...rest: unknown[]) {
      this.write(value, first, rest);
    },
    writable: true,
    configurable: true,
  });
}

function defaultDestination(): LogDestination {
  const stdout = (globalThis as { process?: { stdout?: LogDestination } }).process?.stdout;
  if (stdout !== undefined && typeof stdout.write === 'function') return stdout;
  return { write: (line) => console.log(line.slice(0, -1)) };
}

/** pid and hostname, as pino writes them, where the runtime has them. */
function defaultBase(): Record<string, unknown> {
  const proc = (globalThis as { process?: { pid?: number; getBuiltinModule?: (id: string) => unknown } }).process;
  const os = proc?.getBuiltinModule?.('node:os') as { hostname?: () => string } | undefined;
  return { pid: proc?.pid, hostname: os?.hostname?.() };
}
