import type { IncomingHttpHeaders } from 'node:http';

type RawValue = string | string[] | undefined;

/**
 * Node's parsed headers are a plain object: `raw['constructor']` of a header the client did not
 * send would be `Object.prototype.constructor`. Only own properties are headers. A header named
 * `__proto__` cannot be an own property of that object (Node's assignment is swallowed), so it is
 * read from the raw header lines instead.
 */
export function ownHeader(raw: IncomingHttpHeaders, rawLines: readonly string[], name: string): RawValue {
  if (Object.hasOwn(raw, name)) return raw[name];
  return name === '__proto__' ? protoHeader(rawLines) : undefined;
}

/** The `__proto__` header lines joined as Node joins unknown repeated headers, or undefined. */
export function protoHeader(rawLines: readonly string[]): string | undefined {
  let joined: string | undefined;
  for (let i = 0; i < rawLines.length; i += 2) {
    if (rawLines[i]!.toLowerCase() !== '__proto__') continue;
    joined = joined === undefined ? rawLines[i + 1]! : `${joined}, ${rawLines[i + 1]!}`;
  }
  return joined;
}

/**
 * A `Headers` (for `instanceof` and every method) that answers `get`/`has` straight from Node's
 * already parsed header object. A real `Headers` copy is made only when the headers are iterated
 * or mutated — most requests read one or two headers, and building a `Headers` costs more than
 * the whole route.
 */
export class NodeHeaders {
  #raw: IncomingHttpHeaders;
  #rawLines: readonly string[];
  #copy: Headers | undefined;

  constructor(raw: IncomingHttpHeaders, rawLines: readonly string[]) {
    this.#raw = raw;
    this.#rawLines = rawLines;
  }

  // hot path: called by compiled binders for @Header and by the rate limiter
  get(name: string): string | null {
    if (this.#copy !== undefined) return this.#copy.get(name);
    const value = ownHeader(this.#raw, this.#rawLines, name.toLowerCase());
    if (value === undefined) return null;
    return typeof value === 'string' ? value : value.join(', ');
  }

  has(name: string): boolean {
    if (this.#copy !== undefined) return this.#copy.has(name);
    return ownHeader(this.#raw, this.#rawLines, name.toLowerCase()) !== undefined;
  }

  #materialised(): Headers {
    if (this.#copy === undefined) {
      const copy = new Headers();
      for (const name in this.#raw) {
        const value = this.#raw[name];
        if (value === undefined) continue;
        if (typeof value === 'string') copy.append(name, value);
        else for (const item of value) copy.append(name, item);
      }
      const proto = protoHeader(this.#rawLines);
      if (proto !== undefined) copy.append('__proto__', proto);
      this.#copy = copy;
    }
    return this.#copy;
  }

  set(name: string, value: string): void {
    this.#materialised().set(name, value);
  }
  append(name: string, value: string): void {
    this.#materialised().append(name, value);
  }
  delete(name: string): void {
    this.#materialised().delete(name);
  }
  getSetCookie(): string[] {
    return this.#materialised().getSetCookie();
  }
  forEach(callback: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    this.#materialised().forEach((value, key) => callback.call(thisArg, value, key, this as unknown as Headers));
  }
  entries() {
    return this.#materialised().entries();
  }
  keys() {
    return this.#materialised().keys();
  }
  values() {
    return this.#materialised().values();
  }
  [Symbol.iterator]() {
    return this.#materialised()[Symbol.iterator]();
  }
  [Symbol.for('nodejs.util.inspect.custom')]() {
    return this.#materialised();
  }
}

// `instanceof Headers` holds without running the Headers constructor.
Object.setPrototypeOf(NodeHeaders.prototype, Headers.prototype);
