// The projection of a typed response (docs/guide/typed-responses.md): of each plain object, only
// the own enumerable properties the declared type names there; every other value as it is. The
// body is `JSON.stringify(project(value, shape))`, so escaping, NaN, undefined, functions and key
// order stay JSON.stringify's own. The build writes a specialised projector per return type (fast
// path); this interpreter is the definition, and what that projector falls back to off its path.

/** A part of the declared type that is written as it is (`any`, `unknown`, `object`, `Record<...>`...). */
export const asIs = 0;

/**
 * What the declared type says of a value at one place, as plain data the build writes. `props`:
 * the properties an object may keep there (null-prototype dictionary; absent: none). `items`: the
 * shape of an array's items (`tuple` first for a tuple's leading items). A shape with neither is a
 * scalar place (`string`, a literal, an enum, `Date`): an object found there keeps no property.
 */
export interface ShapeNode {
  readonly props?: Readonly<Record<string, Shape>>;
  readonly items?: Shape;
  readonly tuple?: readonly Shape[];
}

export type Shape = typeof asIs | ShapeNode;

/** A scalar place: an object found there keeps none of its properties. */
export const scalarShape: ShapeNode = Object.freeze({});

const isArray = Array.isArray;
const hasOwn = Object.hasOwn as (object: object, key: PropertyKey) => boolean;

/**
 * Whether an object is a Number, String, Boolean or BigInt wrapper, which JSON.stringify writes as
 * its primitive (it looks at the internal slot, not the prototype): such a value is never filtered.
 * The tag is read first (cheap); a matching tag is confirmed by the slot (a tag can be spoofed).
 */
function isWrapper(value: object): boolean {
  const primitiveOf = wrapperValueOfs[toTag.call(value)];
  if (primitiveOf === undefined) return false;
  try {
    primitiveOf.call(value);
    return true;
  } catch {
    return false;
  }
}
const toTag = Object.prototype.toString;
const wrapperValueOfs: Readonly<Record<string, (this: unknown) => unknown>> = {
  __proto__: null,
  '[object Number]': Number.prototype.valueOf,
  '[object String]': String.prototype.valueOf,
  '[object Boolean]': Boolean.prototype.valueOf,
  '[object BigInt]': BigInt.prototype.valueOf,
} as unknown as Record<string, (this: unknown) => unknown>;
const isRawJson = (JSON as { isRawJSON?: (value: unknown) => boolean }).isRawJSON;

/** Sets `key` on a fresh object, `__proto__` included (an assignment would change the prototype). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * `project(value, shape)`: the value JSON.stringify sees so that only declared properties are sent.
 * Calls `toJSON(key)` where JSON.stringify would, then filters what it returned. Total: it throws
 * only where reading the value throws (a getter, a Proxy trap, a `toJSON`), as JSON.stringify would.
 */
export function project(value: unknown, shape: Shape, key: string | number): unknown {
  if (shape === asIs || typeof value !== 'object' || value === null) return value;
  let object: object = value;
  const toJSON = (object as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    const replaced: unknown = toJSON.call(object, String(key));
    if (typeof replaced !== 'object' || replaced === null) return replaced;
    object = replaced;
  }
  if (isArray(object)) {
    const tuple = shape.tuple;
    const length = object.length;
    const out: unknown[] = new Array(length);
    for (let i = 0; i < length; i++) {
      const itemShape = tuple !== undefined && i < tuple.length ? tuple[i]! : (shape.items ?? scalarShape);
      out[i] = project((object as unknown[])[i], itemShape, i);
    }
    return out;
  }
  if (isWrapper(object) || isRawJson?.(object) === true) return object;
  const out: Record<string, unknown> = {};
  const props = shape.props;
  if (props === undefined) return out;
  for (const name of Object.keys(object)) {
    if (hasOwn(props, name)) setOwn(out, name, project((object as Record<string, unknown>)[name], props[name]!, name));
  }
  return out;
}

/** Whether `for...in` over a plain object lists its own keys only (no enumerable key on Object.prototype). */
export function objectPrototypeClean(): boolean {
  for (const _ in Object.prototype) return false;
  return true;
}
