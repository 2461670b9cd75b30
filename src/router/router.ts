import { HttpError } from '../http-error.js';
import { routeParamNames } from './route-path.js';

/** Everything registered on one path: the route of each method and the `Allow` header value. */
export interface PathEntry<R> {
  readonly byMethod: Readonly<Record<string, R>>;
  readonly allow: string;
  readonly paramNames: readonly string[];
}

export interface PathMatch<R> {
  readonly entry: PathEntry<R>;
  /** Null-prototype object of decoded parameters; undefined for a static path. */
  readonly params: Record<string, string> | undefined;
}

interface SegmentNode<R> {
  statics: Map<string, SegmentNode<R>>;
  param: SegmentNode<R> | undefined;
  match: PathMatch<R> | undefined;
}

function segmentNode<R>(): SegmentNode<R> {
  return { statics: new Map(), param: undefined, match: undefined };
}

function decodeParam(raw: string): string {
  if (raw.indexOf('%') === -1) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new HttpError(400, 'Malformed percent-encoding in the request path');
  }
}

/**
 * Static paths are found in one Map lookup; paths with `:name` segments in a segment tree, where a
 * static segment is preferred over a parameter and the walk backtracks when that fails.
 * Paths given to `find` are normalised by the caller (no trailing slash).
 */
export class Router<R> {
  #pending = new Map<string, { path: string; byMethod: Record<string, R> }>();
  #static = new Map<string, PathMatch<R>>();
  #root: SegmentNode<R> = segmentNode();

  add(method: string, path: string, route: R): void {
    let pending = this.#pending.get(path);
    if (pending === undefined) {
      pending = { path, byMethod: Object.create(null) };
      this.#pending.set(path, pending);
    }
    pending.byMethod[method] = route;
  }

  /** Builds the lookup structures; call once after every `add`. */
  build(): void {
    for (const { path, byMethod } of this.#pending.values()) {
      const methods = Object.keys(byMethod);
      if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
      const paramNames = routeParamNames(path);
      const entry: PathEntry<R> = Object.freeze({
        byMethod: Object.freeze(byMethod),
        allow: [...methods, 'OPTIONS'].join(', '),
        paramNames,
      });
      if (paramNames.length === 0) {
        this.#static.set(path, Object.freeze({ entry, params: undefined }));
        continue;
      }
      let node = this.#root;
      for (const segment of path.slice(1).split('/')) {
        if (segment.startsWith(':')) node = node.param ??= segmentNode();
        else {
          let next = node.statics.get(segment);
          if (next === undefined) node.statics.set(segment, (next = segmentNode()));
          node = next;
        }
      }
      node.match = { entry, params: undefined };
    }
    this.#pending.clear();
  }

  // hot path: one Map lookup for static routes, no allocation
  find(path: string): PathMatch<R> | undefined {
    const found = this.#static.get(path);
    if (found !== undefined) return found;
    if (this.#root.statics.size === 0 && this.#root.param === undefined) return undefined;
    const values: string[] = [];
    const node = this.#walk(this.#root, path, 1, values);
    if (node === undefined) return undefined;
    const { entry } = node.match!;
    const params: Record<string, string> = Object.create(null);
    for (let i = 0; i < values.length; i++) params[entry.paramNames[i]!] = decodeParam(values[i]!);
    return { entry, params };
  }

  #walk(node: SegmentNode<R>, path: string, start: number, values: string[]): SegmentNode<R> | undefined {
    if (start > path.length) return node.match !== undefined ? node : undefined;
    let end = path.indexOf('/', start);
    if (end === -1) end = path.length;
    const segment = path.slice(start, end);
    const fixed = node.statics.get(segment);
    if (fixed !== undefined) {
      const found = this.#walk(fixed, path, end + 1, values);
      if (found !== undefined) return found;
    }
    if (node.param !== undefined && segment.length > 0) {
      values.push(segment);
      const found = this.#walk(node.param, path, end + 1, values);
      if (found !== undefined) return found;
      values.pop();
    }
    return undefined;
  }
}
