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
    try {
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
          return valueJson(value) ?? 'null';
      }
    } catch {
      return unwritable;
    }
  });
}

/** What a value that throws when it is read, converted or serialised is written as. */
const unwritable = '[Unserializable]';
/** Nesting past this depth is written as "[Too deep]" (JSON.stringify would overflow the stack). */
const maxDepth = 64;

/** An Error as pino's standard serialiser writes it. */
function serializeError(error: Error): Record<string, unknown> {
  const out: Record<string, unknown> = { type: error.constructor?.name ?? 'Error', message: error.message, stack: error.stack };
  for (const key of Object.keys(error)) if (!(key in out)) out[key] = (error as unknown as Record<string, unknown>)[key];
  if (error.cause !== undefined) out.cause = error.cause instanceof Error ? serializeError(error.cause) : error.cause;
  return out;
}

/**
 * The JSON text of `value`, or undefined where JSON.stringify leaves it out (a function, a symbol,
 * undefined). Never throws: the common value takes JSON.stringify's own path; one that throws there
 * (a getter, `toJSON`, `toString` or Proxy trap that throws, or nesting deep enough to overflow the
 * stack) is walked again part by part, and only the parts that throw become "[Unserializable]".
 */
function valueJson(value: unknown): string | undefined {
  try {
    const seen = new WeakSet<object>();
    return JSON.stringify(value, (_key, item: unknown) => {
      if (typeof item === 'bigint') return item.toString();
      if (item instanceof Error) return serializeError(item);
      if (item !== null && typeof item === 'object') {
        if (seen.has(item)) return '[Circular]';
        seen.add(item);
      }
      return item;
    });
  } catch {
    return carefulJson(value, [], 0);
  }
}

/** JSON.stringify's rules, one guarded step at a time. `path` holds the objects being written. */
function carefulJson(value: unknown, path: object[], depth: number): string | undefined {
  try {
    let item = value;
    if (item !== null && (typeof item === 'object' || typeof item === 'bigint')) {
      const toJSON = (item as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') item = toJSON.call(item, '');
    }
    switch (typeof item) {
      case 'string':
        return JSON.stringify(item);
      case 'number':
        return Number.isFinite(item) ? String(item) : 'null';
      case 'boolean':
        return String(item);
      case 'bigint':
        return JSON.stringify(item.toString());
      case 'object':
        break;
      default:
        return undefined;
    }
    if (item === null) return 'null';
    if (path.includes(item)) return '"[Circular]"';
    if (depth >= maxDepth) return '"[Too deep]"';
    const boxed = boxedJson(item);
    if (boxed !== undefined) return boxed;
    path.push(item);
    try {
      if (Array.isArray(item)) {
        const parts: string[] = [];
        for (let i = 0; i < item.length; i++) parts.push(guarded(() => (item as unknown[])[i], path, depth) ?? 'null');
        return `[${parts.join(',')}]`;
      }
      const source = item instanceof Error ? guardedError(item) : item;
      let text = '';
      for (const key of Object.keys(source)) {
        const json = guarded(() => (source as Record<string, unknown>)[key], path, depth);
        if (json !== undefined) text += `${JSON.stringify(key)}:${json},`;
      }
      return `{${text.slice(0, -1)}}`;
    } finally {
      path.pop();
    }
  } catch {
    return JSON.stringify(unwritable);
  }
}

/** The JSON of one member, read and written with its own guard. */
function guarded(read: () => unknown, path: object[], depth: number): string | undefined {
  let member: unknown;
  try {
    member = read();
  } catch {
    return JSON.stringify(unwritable);
  }
  return carefulJson(member, path, depth + 1);
}

/** `serializeError` with each field read on its own, so one that throws loses only itself. */
function guardedError(error: Error): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const read = (name: string, get: () => unknown) => {
    try {
      out[name] = get();
    } catch {
      out[name] = unwritable;
    }
  };
  read('type', () => error.constructor?.name ?? 'Error');
  read('message', () => error.message);
  read('stack', () => error.stack);
  let keys: string[] = [];
  try {
    keys = Object.keys(error);
  } catch {
    // keys that cannot be listed are left out
  }
  for (const key of keys) if (!(key in out)) read(key, () => (error as unknown as Record<string, unknown>)[key]);
  read('cause', () => error.cause);
  if (out.cause === undefined) delete out.cause;
  return out;
}

/**
 * A Number, String, Boolean or BigInt object written as its primitive, as JSON.stringify does. The
 * brand check is the intrinsic `valueOf`, which throws for anything else (a changed
 * `Symbol.toStringTag` or prototype does not fool it).
 */
function boxedJson(item: object): string | undefined {
  const unboxers: readonly ((this: unknown) => unknown)[] = [
    Number.prototype.valueOf,
    String.prototype.valueOf,
    Boolean.prototype.valueOf,
    BigInt.prototype.valueOf,
  ];
  for (const unbox of unboxers) {
    let primitive: unknown;
    try {
      primitive = unbox.call(item);
    } catch {
      continue;
    }
    return carefulJson(primitive, [], 0);
  }
  return undefined;
}

/** A field's JSON: JSON.stringify as it is first (the common case, and the fastest), else `valueJson`. */
function plainJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return valueJson(value);
  }
}

/** `String(value)` that never throws. */
function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return unwritable;
  }
}

/** The body of a line, `{` and `}` excepted: `"key":value,` for every field. Never throws. */
function fieldsText(fields: unknown): string {
  let text = '';
  try {
    for (const key in fields as Record<string, unknown>) {
      let value: unknown;
      try {
        value = (fields as Record<string, unknown>)[key];
      } catch {
        value = unwritable;
      }
      if (value === undefined || typeof value === 'function') continue;
      const json = isError(value) ? valueJson(guardedError(value)) : plainJson(value);
      if (json !== undefined) text += `${JSON.stringify(key)}:${json},`;
    }
  } catch {
    // fields that cannot be listed (a Proxy whose ownKeys trap throws) are written as such
    text += `"fields":${JSON.stringify(unwritable)},`;
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
    const head = `{"level":${value},"time":${Date.now()},${this.#shared.base}${this.#bindings}`;
    let line: string;
    try {
      line = head + this.#callText(first, rest);
    } catch {
      // every step of #callText is guarded; this keeps the line whole if one is missed
      line = `${head}"msg":${JSON.stringify(unwritable)},`;
    }
    try {
      this.#shared.destination.write(`${line.slice(0, -1)}}\n`);
    } catch {
      // a logger must not turn a full disk into failed requests
    }
  }

  /** The fields and message of one call, as `"key":value,` text. */
  #callText(first: unknown, rest: readonly unknown[]): string {
    let fields = '';
    let message: unknown;
    let args = rest;
    if (typeof first === 'string') message = first;
    else {
      if (isError(first)) {
        fields = `"err":${valueJson(guardedError(first))},`;
        message = rest.length > 0 ? rest[0] : readMessage(first);
      } else if (first !== null && typeof first === 'object') {
        fields = fieldsText(first);
        message = rest[0];
      } else message = first;
      args = rest.slice(1);
    }
    if (message === undefined) return fields;
    return `${fields}"msg":${JSON.stringify(formatMessage(safeString(message), args))},`;
  }
}

/** `value instanceof Error`, false where a Proxy's trap throws. */
function isError(value: unknown): value is Error {
  try {
    return value instanceof Error;
  } catch {
    return false;
  }
}

/** An Error's message, "[Unserializable]" where reading it throws. */
function readMessage(error: Error): unknown {
  try {
    return error.message;
  } catch {
    return unwritable;
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
