import { HttpError } from '../http-error.js';
import { notFound, routeDecision, unroutedDecision, type RouteDecision, type UnroutedDecision } from './route-decision.js';
import { routeParamNames } from './route-path.js';

/** Everything registered on one path, with the decisions that do not depend on the request. */
interface PathEntry<R> {
  /** The route of each method; HEAD is served by GET unless it has a route of its own. */
  readonly byMethod: Readonly<Record<string, R>>;
  readonly allow: string;
  readonly paramNames: readonly string[];
  /** For a static path, the whole decision of each method, made once. */
  readonly decisions: Readonly<Record<string, RouteDecision<R>>>;
  readonly methodNotAllowed: UnroutedDecision;
  readonly options: UnroutedDecision;
}

interface SegmentNode<R> {
  statics: Map<string, SegmentNode<R>>;
  /**
   * The static children as [name, node] pairs when they are few (set by `build`): compared in
   * place against the path, with no segment string cut out and hashed for a Map lookup.
   */
  few: readonly (readonly [string, SegmentNode<R>])[] | undefined;
  param: SegmentNode<R> | undefined;
  entry: PathEntry<R> | undefined;
}

function segmentNode<R>(): SegmentNode<R> {
  return { statics: new Map(), few: undefined, param: undefined, entry: undefined };
}

/** Up to this many static children are compared one by one; more are looked up in their Map. */
const fewChildren = 8;

function listFewChildren<R>(node: SegmentNode<R>): void {
  if (node.statics.size <= fewChildren) node.few = [...node.statics];
  for (const child of node.statics.values()) listFewChildren(child);
  if (node.param !== undefined) listFewChildren(node.param);
}

/** The static child named by `path` from `start` to `end`. */
function staticChild<R>(node: SegmentNode<R>, path: string, start: number, end: number): SegmentNode<R> | undefined {
  const few = node.few;
  if (few === undefined) return node.statics.get(path.slice(start, end));
  const length = end - start;
  for (let i = 0; i < few.length; i++) {
    const [name, child] = few[i]!;
    if (name.length === length && path.startsWith(name, start)) return child;
  }
  return undefined;
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
 * The same name as a property key string (V8 internalises every key). A name sliced out of the
 * route path is a fresh string: `find`'s keyed store `params[name]` compares it with the name its
 * inline cache holds by identity, so with the sliced copy that cache missed on every request (a
 * runtime call of about 5 µs); with the key itself it hits.
 */
function asPropertyKey(name: string): string {
  return Object.keys({ [name]: 0 })[0]!;
}

function pathEntry<R>(path: string, byMethod: Record<string, R>): PathEntry<R> {
  // The HEAD rule lives here, once: a GET route answers HEAD (the writers drop the body).
  if (byMethod.GET !== undefined && byMethod.HEAD === undefined) byMethod.HEAD = byMethod.GET;
  const allow = [...Object.keys(byMethod), 'OPTIONS'].join(', ');
  const paramNames = routeParamNames(path).map(asPropertyKey);
  const decisions: Record<string, RouteDecision<R>> = Object.create(null);
  if (paramNames.length === 0) {
    for (const method of Object.keys(byMethod)) decisions[method] = Object.freeze(routeDecision(byMethod[method]!, undefined, allow));
  }
  return Object.freeze({
    byMethod: Object.freeze(byMethod),
    allow,
    paramNames,
    decisions: Object.freeze(decisions),
    methodNotAllowed: unroutedDecision('method-not-allowed', allow),
    options: unroutedDecision('options', allow),
  });
}

/** A path that exists, asked with a method it has no route for. */
function unrouted<R>(entry: PathEntry<R>, method: string): UnroutedDecision {
  return method === 'OPTIONS' ? entry.options : entry.methodNotAllowed;
}

/**
 * Decides which route answers a method on a path. Static paths are found in one Map lookup;
 * paths with `:name` segments in a segment tree, where a static segment is preferred over a
 * parameter and the walk backtracks when that fails. Paths given to `find` are normalised by
 * the caller (see request-target.ts).
 */
export class Router<R> {
  #pending = new Map<string, Record<string, R>>();
  #static = new Map<string, PathEntry<R>>();
  #root: SegmentNode<R> = segmentNode();

  add(method: string, path: string, route: R): void {
    let byMethod = this.#pending.get(path);
    if (byMethod === undefined) {
      byMethod = Object.create(null) as Record<string, R>;
      this.#pending.set(path, byMethod);
    }
    byMethod[method] = route;
  }

  /** Builds the lookup structures; call once after every `add`. */
  build(): void {
    for (const [path, byMethod] of this.#pending) {
      const entry = pathEntry(path, byMethod);
      if (entry.paramNames.length === 0) {
        this.#static.set(path, entry);
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
      node.entry = entry;
    }
    listFewChildren(this.#root);
    this.#pending.clear();
  }

  /**
   * The decision for a method on a normalised path. Throws a 400 `HttpError` when a parameter's
   * percent-encoding is malformed.
   */
  // hot path: a static route is one Map lookup and one property read, no allocation
  find(method: string, path: string): RouteDecision<R> {
    const found = this.#static.get(path);
    if (found !== undefined) return found.decisions[method] ?? unrouted(found, method);
    if (this.#root.statics.size === 0 && this.#root.param === undefined) return notFound;
    const values: string[] = [];
    const node = this.#walk(this.#root, path, 1, values);
    if (node === undefined) return notFound;
    const entry = node.entry!;
    const route = entry.byMethod[method];
    if (route === undefined) return unrouted(entry, method);
    const params: Record<string, string> = Object.create(null);
    for (let i = 0; i < values.length; i++) params[entry.paramNames[i]!] = decodeParam(values[i]!);
    return routeDecision(route, params, entry.allow);
  }

  #walk(node: SegmentNode<R>, path: string, start: number, values: string[]): SegmentNode<R> | undefined {
    if (start > path.length) return node.entry !== undefined ? node : undefined;
    let end = path.indexOf('/', start);
    if (end === -1) end = path.length;
    const fixed = staticChild(node, path, start, end);
    if (fixed !== undefined) {
      const found = this.#walk(fixed, path, end + 1, values);
      if (found !== undefined) return found;
    }
    if (node.param !== undefined && end > start) {
      values.push(path.slice(start, end));
      const found = this.#walk(node.param, path, end + 1, values);
      if (found !== undefined) return found;
      values.pop();
    }
    return undefined;
  }
}
