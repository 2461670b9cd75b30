import type { IncomingHttpHeaders } from 'node:http';

/**
 * A `Headers` (for `instanceof` and every method) that answers `get`/`has` straight from Node's
 * already parsed header object. A real `Headers` copy is made only when the headers are iterated
 * or mutated — most requests read one or two headers, and building a `Headers` costs more than
 * the whole route.
 */
export class NodeHeaders {
  #raw: IncomingHttpHeaders;
  #copy: Headers | undefined;

  constructor(raw: IncomingHttpHeaders) {
    this.#raw = raw;
  }

  // hot path: called by compiled binders for @Header and by the rate limiter
  get(name: string): string | null {
    if (this.#copy !== undefined) return this.#copy.get(name);
    const value = this.#raw[name.toLowerCase()];
    if (value === undefined) return null;
    return typeof value === 'string' ? value : value.join(', ');
  }

  has(name: string): boolean {
    if (this.#copy !== undefined) return this.#copy.has(name);
    return this.#raw[name.toLowerCase()] !== undefined;
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
