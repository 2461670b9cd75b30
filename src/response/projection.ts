// The projection of a typed response (docs/guide/typed-responses.md): of each plain object, only
// the own enumerable properties the declared type names there; every other value as it is. The
// body is `JSON.stringify(project(value, shape))`, so escaping, NaN, undefined, functions and key
// order stay JSON.stringify's own. The build writes a specialised projector per return type (fast
// path); this interpreter is the definition, and what that projector falls back to off its path.

/** A part of the declared type that is written as it is (`any`, `unknown`, `object`, `{}`...). */
export const asIs = 0;

/**
 * What the declared type says of a value at one place, as plain data the build writes. `props`:
 * the properties an object may keep there (null-prototype dictionary; absent: none). `values`: an
 * index signature's (`Record<string, T>`): every other own enumerable property is kept, projected
 * to it; `numericValues`: a number index signature's, for the keys that are numbers (`'7'`), ahead
 * of `values`. `items`: the shape of an array's items (`tuple` first for a tuple's leading items).
 * A shape with none of these is a scalar place (`string`, a literal, an enum, `Date`): an object
 * found there keeps no property.
 */
export interface ShapeNode {
  readonly props?: Readonly<Record<string, Shape>>;
  readonly values?: Shape;
  readonly numericValues?: Shape;
  readonly items?: Shape;
  readonly tuple?: readonly Shape[];
}

/** Whether a key is a number's name, as TypeScript applies a number index signature (`'7'`, `'-1.5'`). */
export function isNumericKey(key: string): boolean {
  return String(+key) === key;
}

export type Shape = typeof asIs | ShapeNode;

/** A scalar place: an object found there keeps none of its properties. */
export const scalarShape: ShapeNode = Object.freeze({});

const isArray = Array.isArray;
const hasOwn = Object.hasOwn as (object: object, key: PropertyKey) => boolean;

const noPrimitive: unique symbol = Symbol('not a wrapper');

/**
 * The primitive JSON.stringify writes for a Number, String, Boolean or BigInt wrapper (it looks at
 * the internal slot, not the prototype), or `noPrimitive`. The tag is read first (cheap); a
 * matching tag is confirmed by the slot. A tag only lies when `Symbol.toStringTag` is set, and then
 * every slot is tried, so a wrapper with a changed tag is still found.
 */
function wrappedPrimitive(value: object): unknown {
  const unwrap = wrapperValueOfs[toTag.call(value)];
  if (unwrap !== undefined) {
    const primitive = unwrapped(value, unwrap);
    if (primitive !== noPrimitive) return primitive;
  }
  if (typeof (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] !== 'string') return noPrimitive;
  for (const other of wrapperUnwraps) {
    const primitive = unwrapped(value, other);
    if (primitive !== noPrimitive) return primitive;
  }
  return noPrimitive;
}

/** The wrapper's primitive as JSON.stringify takes it (ToNumber, ToString, the slot), or `noPrimitive`. */
function unwrapped(value: object, unwrap: (this: unknown) => unknown): unknown {
  try {
    unwrap.call(value);
  } catch {
    return noPrimitive;
  }
  if (unwrap === Number.prototype.valueOf) return Number(value);
  if (unwrap === String.prototype.valueOf) return String(value);
  return unwrap.call(value);
}
const toTag = Object.prototype.toString;
const wrapperValueOfs: Readonly<Record<string, (this: unknown) => unknown>> = {
  __proto__: null,
  '[object Number]': Number.prototype.valueOf,
  '[object String]': String.prototype.valueOf,
  '[object Boolean]': Boolean.prototype.valueOf,
  '[object BigInt]': BigInt.prototype.valueOf,
} as unknown as Record<string, (this: unknown) => unknown>;
const wrapperUnwraps = [Number.prototype.valueOf, String.prototype.valueOf, Boolean.prototype.valueOf, BigInt.prototype.valueOf];
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
  if (isRawJson?.(object) === true) return object;
  // A wrapper is written as its primitive, never as an object: the primitive is what JSON.stringify
  // writes, and a wrapper left in the result would have its own toJSON called, unfiltered.
  const primitive = wrappedPrimitive(object);
  if (primitive !== noPrimitive) return primitive;
  const out: Record<string, unknown> = {};
  const { props, values, numericValues } = shape;
  if (props === undefined && values === undefined && numericValues === undefined) return out;
  for (const name of Object.keys(object)) {
    if (props !== undefined && hasOwn(props, name)) {
      setOwn(out, name, project((object as Record<string, unknown>)[name], props[name]!, name));
      continue;
    }
    const indexShape = numericValues !== undefined && isNumericKey(name) ? numericValues : values;
    if (indexShape === undefined) continue;
    const item = (object as Record<string, unknown>)[name];
    // JSON.stringify leaves a function out; copied, a `toJSON` one would be called on the result, unfiltered.
    if (typeof item !== 'function') setOwn(out, name, project(item, indexShape, name));
  }
  return out;
}

/** Whether `for...in` over a plain object lists its own keys only (no enumerable key on Object.prototype). */
export function objectPrototypeClean(): boolean {
  for (const _ in Object.prototype) return false;
  return true;
}
