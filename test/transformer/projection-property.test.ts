// The typed-response contract, for every value: the body of a route declared to return T is
// exactly JSON.stringify(project(value, T)), where project keeps, of each object, only the own
// enumerable properties T declares there, and leaves every other value as it is. fast-check
// (seeded) draws 1,000 values per declared type and form (500 that fit T, 500 that do not:
// wrong primitives, null/undefined, quotes, backslashes and U+2028 in strings, extra keys at
// every depth, own __proto__ keys, getters, toJSON, class instances, wrappers), sends each through
// the serialiser the build wrote for the route (in process: the same function a request calls),
// and compares the text with a reference projection written here as a small interpreter over a
// hand-written description of T. A few values also go over HTTP (socket and app.fetch).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { types } from 'node:util';
import type { Serializer } from '@kiln/core/binding';
import { overBothTransports } from '../support/server.js';
import { assertingSerializers, Kind, Level, Money, ProjectionController, returnNext } from './support/projection-controllers.js';

const seed = 20261124;
const perKind = 500;

// ---- the hand-written descriptions of the declared types ----

/** A declared type, as the reference projection reads it. `fit` draws the values of a scalar. */
type Desc =
  | { readonly k: 'scalar'; readonly fit: fc.Arbitrary<unknown> }
  | { readonly k: 'asIs'; readonly fit: fc.Arbitrary<unknown> }
  | {
      readonly k: 'obj';
      readonly props: Readonly<Record<string, Desc>>;
      readonly optional?: readonly string[];
      /** A string index signature's value type (every other key), and a number one's (keys that are numbers). */
      readonly index?: Desc;
      readonly numIndex?: Desc;
    }
  | { readonly k: 'arr'; readonly item: Desc; readonly maxLength?: number }
  | { readonly k: 'tuple'; readonly items: readonly Desc[]; readonly rest?: Desc }
  | { readonly k: 'union'; readonly members: readonly Desc[] }
  | { readonly k: 'lazy'; readonly get: () => Desc };

const finite = fc.double({ noNaN: true, noDefaultInfinity: true });
const str: Desc = { k: 'scalar', fit: fc.string() };
const num: Desc = { k: 'scalar', fit: finite };
const int: Desc = { k: 'scalar', fit: fc.integer() };
const bool: Desc = { k: 'scalar', fit: fc.boolean() };
const nul: Desc = { k: 'scalar', fit: fc.constant(null) };
const lit = (...values: unknown[]): Desc => ({ k: 'scalar', fit: fc.constantFrom(...values) });
const date: Desc = { k: 'scalar', fit: fc.date({ noInvalidDate: true }) };
const json: Desc = { k: 'asIs', fit: fc.jsonValue({ maxDepth: 2 }) };
const asIs = (fit: fc.Arbitrary<unknown>): Desc => ({ k: 'asIs', fit });
const obj = (props: Record<string, Desc>, optional: string[] = []): Desc => ({ k: 'obj', props, optional });
const arr = (item: Desc): Desc => ({ k: 'arr', item });
const record = (index: Desc, props: Record<string, Desc> = {}): Desc => ({ k: 'obj', props, index });
const union = (...members: Desc[]): Desc => ({ k: 'union', members });

const address = obj({ street: str, city: str });
const circle = obj({ kind: lit('circle'), radius: num });
const square = obj({ kind: lit('square'), side: num });
const tree: Desc = obj({ value: num, children: arr({ k: 'lazy', get: () => tree }) });
const undef = lit(undefined);

const declared: Record<string, Desc> = {
  t01: obj({ id: int, name: str, active: bool }),
  t02: obj({ id: int, address }),
  t03: obj({ id: int, nickname: union(str, undef), bio: union(str, nul, undef) }, ['nickname', 'bio']),
  t04: obj({ role: lit('admin', 'user'), flag: lit(true), level: lit(1, 2, 3) }),
  t05: obj({ kind: lit(Kind.A, Kind.B), level: lit(Level.Low, Level.High) }),
  t06: str,
  t07: lit('a', 'b', null),
  t08: union(num, bool),
  t09: obj({ pair: { k: 'tuple', items: [str, num] } }),
  t10: { k: 'tuple', items: [num], rest: address },
  t11: obj({ tags: arr(str), scores: arr(num) }),
  t12: obj({ items: arr(union(str, address)) }),
  t13: union(circle, square),
  t14: obj({ v: union(address, str) }),
  t15: obj({ v: union(circle, nul, arr(union(square, address))) }),
  // Partial<Account>, where Account is { id: number; name: string; address: Address }
  t16: obj({ id: union(int, undef), name: union(str, undef), address: union(address, undef) }, ['id', 'name', 'address']),
  t17: obj({ id: int, name: str }),
  t18: obj({ items: arr(address), total: int, next: union(str, undef) }, ['next']),
  t19: tree,
  t20: obj({ street: str, city: str, id: int }),
  t21: obj({ id: int, byName: record(address) }),
  t22: obj({ id: int, meta: asIs(fc.object({ maxDepth: 1 })) }),
  t23: obj({ id: int, extra: asIs(fc.object({ maxDepth: 1 })) }),
  t24: obj({ id: int, data: json }),
  t25: obj({ id: int, data: json }),
  t26: obj({ title: str, at: date, reminders: arr(date) }),
  t27: obj({ things: { k: 'arr', item: json, maxLength: 0 } }), // only [] fits never[]
  t28: obj({ label: str, price: { k: 'asIs', fit: fc.integer().map((cents) => new Money(cents)) } }),
  t29: obj({ email: { k: 'scalar', fit: fc.emailAddress() } }),
  t30: obj({ 'a"b': str, 'back\\slash': num, 0: str, ['__proto__']: str }),
  t31: record(num),
  t32: obj({ id: int }),
  t33: obj({ owners: union(arr(address), nul, undef) }, ['owners']),
  t34: obj({ a: address, b: address }),
  t35: union(address, nul),
  t36: obj({ inner: obj({ deeper: obj({ deepest: arr(address) }) }), n: num }),
  t37: record(union(address, num), { id: num }),
  t38: { k: 'obj', props: {}, numIndex: address },
};

// ---- the reference projection (the contract, read straight from docs/guide/typed-responses.md) ----

function resolve(desc: Desc): Desc {
  return desc.k === 'lazy' ? resolve(desc.get()) : desc;
}

/** The members of a union, nested unions opened, scalars dropped, each once. */
function structuredMembers(desc: Desc, into: Desc[] = []): Desc[] {
  const d = resolve(desc);
  if (d.k === 'union') for (const member of d.members) structuredMembers(member, into);
  else if (d.k !== 'scalar' && !into.includes(d)) into.push(d);
  return into;
}

/** Reading a description is memoised: the same few descriptions are read for 100,000 values. */
function memo<R>(read: (desc: Desc) => R): (desc: Desc) => R {
  const cache = new WeakMap<Desc, R>();
  return (desc) => {
    if (!cache.has(desc)) cache.set(desc, read(desc));
    return cache.get(desc)!;
  };
}

const writtenAsIs = memo((desc) => structuredMembers(desc).some((d) => d.k === 'asIs'));

/** What a union keeps of an object: every property some member declares, with the union of their types. */
const propsOf = memo((desc): Map<string, Desc> | undefined => {
  const objects = structuredMembers(desc).filter((d) => d.k === 'obj');
  if (objects.length === 0) return undefined;
  const props = new Map<string, Desc>();
  for (const o of objects) {
    for (const [name, type] of Object.entries(o.props)) {
      const before = props.get(name);
      props.set(name, before === undefined ? type : union(before, type));
    }
  }
  return props;
});

/** What a union's index signatures keep of an undeclared key: [every key's type, a number key's type]. */
const indexesOf = memo((desc): readonly [Desc | undefined, Desc | undefined] => {
  const objects = structuredMembers(desc).filter((d) => d.k === 'obj');
  const strings = objects.flatMap((o) => (o.index === undefined ? [] : [o.index]));
  const numbers = objects.flatMap((o) => (o.numIndex === undefined ? [] : [o.numIndex]));
  const either = (types: Desc[]) => (types.length === 0 ? undefined : types.length === 1 ? types[0] : union(...types));
  return [either(strings), numbers.length === 0 ? undefined : either([...numbers, ...strings])];
});

/** The type a key keeps in an object of `desc`: the declared property's, an index signature's, or none. */
function keyType(desc: Desc, name: string): Desc | undefined {
  const [strings, numbers] = indexesOf(desc);
  const indexed = numbers !== undefined && String(+name) === name ? numbers : strings;
  const declaredType = (propsOf(desc) ?? noProps).get(name);
  if (declaredType === undefined || indexed === undefined) return declaredType ?? indexed;
  return union(declaredType, indexed);
}

/** The declared type of an array's item `i`: a tuple keeps its places when it is the only array-like member. */
function itemType(desc: Desc, i: number): Desc {
  const { only, merged } = listView(desc);
  if (only?.k === 'arr') return only.item;
  if (only?.k === 'tuple') return only.items[i] ?? only.rest ?? str;
  return merged;
}

const listView = memo((desc): { only?: Desc; merged: Desc } => {
  const members = structuredMembers(desc);
  const lists = members.filter((d) => d.k === 'arr' || d.k === 'tuple');
  if (members.length === 1 && lists.length === 1) return { only: lists[0]!, merged: str };
  const items = lists.flatMap((d) => (d.k === 'arr' ? [d.item] : d.k === 'tuple' ? [...d.items, ...(d.rest ? [d.rest] : [])] : []));
  return { merged: items.length === 0 ? str : union(...items) };
});

const noProps = new Map<string, Desc>();

function reference(value: unknown, desc: Desc, key: string): unknown {
  if (writtenAsIs(desc) || typeof value !== 'object' || value === null) return value;
  let v: object = value;
  const toJSON = (v as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    const replaced = toJSON.call(v, key);
    if (typeof replaced !== 'object' || replaced === null) return replaced;
    v = replaced;
  }
  if (Array.isArray(v)) return Array.from({ length: v.length }, (_, i) => reference(v[i], itemType(desc, i), String(i)));
  // JSON.stringify writes a wrapper as its primitive (ToNumber, ToString, or the slot's value)
  if (types.isNumberObject(v)) return Number(v);
  if (types.isStringObject(v)) return String(v);
  if (types.isBoxedPrimitive(v)) return (v as { valueOf(): unknown }).valueOf();
  const kept: Record<string, unknown> = {};
  for (const name of Object.keys(v)) {
    // JSON.stringify leaves a function out, and calls toJSON once per place: a kept `toJSON` key would be called again.
    if (typeof (v as Record<string, unknown>)[name] === 'function') continue;
    const type = keyType(desc, name);
    if (type !== undefined)
      Object.defineProperty(kept, name, { value: reference((v as Record<string, unknown>)[name], type, name), enumerable: true });
  }
  return kept;
}

/** `JSON.stringify(project(value, T))`, or 'throws' where JSON.stringify throws (a bigint). */
function expected(value: unknown, desc: Desc): string | undefined {
  try {
    return JSON.stringify(reference(value, desc, '')) ?? 'null';
  } catch {
    return 'throws';
  }
}

// ---- values: those that fit the type, and those that do not ----

/** Text JSON must escape, and text typia's string-building serialiser once wrote raw. */
const hostileText = fc.oneof(
  fc.constantFrom('"', '\\', '\u2028', '\u2029', '\ud800', '</script>', '\u0000', 'true,"isAdmin":true', '","role":"admin'),
  fc.string({ unit: 'binary', maxLength: 8 }),
);
class Row {
  inheritedSecret?: string;
  get label(): string {
    return 'a getter on the prototype';
  }
}
Row.prototype.inheritedSecret = 'inherited';

const secretObject = fc.record({ password: fc.constant('hunter2'), nested: fc.record({ token: hostileText }) });
const junk: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constantFrom(null, undefined, Number.NaN, Number.POSITIVE_INFINITY, -0),
  secretObject,
  fc.array(secretObject, { maxLength: 2 }),
  fc.constantFrom(new String('boxed'), new Number(7), new Boolean(false), new Date(0), Symbol('s'), () => 'fn'),
  secretObject.map((inner) => ({ secret: 1, toJSON: () => inner })),
  fc.constant(1n),
);

/** An object made hostile: extra keys in any order, an own `__proto__`, a getter, a toJSON, a class prototype. */
function hostileObject(base: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<unknown> {
  return fc
    .record({
      base,
      extra: fc.dictionary(fc.constantFrom('secret', 'isAdmin', 'password', 'constructor', 'toString'), junk, { maxKeys: 2 }),
      protoKey: fc.option(junk, { freq: 3 }),
      getter: fc.boolean(),
      toJSON: fc.option(fc.oneof(secretObject, junk), { freq: 6 }),
      prototype: fc.constantFrom('plain', 'plain', 'plain', 'class', 'null'),
      reverse: fc.boolean(),
    })
    .map(({ base, extra, protoKey, getter, toJSON, prototype, reverse }) => {
      const entries = [...Object.entries(base), ...Object.entries(extra)];
      if (reverse) entries.reverse();
      const o: Record<string, unknown> = prototype === 'null' ? Object.create(null) : prototype === 'class' ? new Row() : {};
      for (const [name, value] of entries) {
        if (getter && name in base) Object.defineProperty(o, name, { get: () => value, enumerable: true, configurable: true });
        else Object.defineProperty(o, name, { value, enumerable: true, writable: true, configurable: true });
      }
      if (protoKey !== null) Object.defineProperty(o, '__proto__', { value: protoKey, enumerable: true, writable: true });
      if (toJSON !== null) Object.defineProperty(o, 'toJSON', { value: () => toJSON, enumerable: false });
      return o;
    });
}

const deepest = 3;

function values(desc: Desc, hostile: boolean, depth = 0): fc.Arbitrary<unknown> {
  const d = resolve(desc);
  const fitting = (): fc.Arbitrary<unknown> => {
    switch (d.k) {
      case 'scalar':
      case 'asIs':
        return d.fit;
      case 'obj': {
        // fc.record would assign `__proto__` (setting the prototype): it draws it under another name.
        const drawn = (name: string) => (name === '__proto__' ? '__proto__$' : name);
        const model: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [name, type] of Object.entries(d.props)) model[drawn(name)] = values(type, hostile, depth + 1);
        const required = Object.keys(d.props)
          .filter((name) => !d.optional?.includes(name))
          .map(drawn);
        // An index signature's keys: any string (or number) a declared property does not take.
        const indexKeys = d.numIndex !== undefined ? fc.nat({ max: 99 }).map(String) : fc.string({ maxLength: 6 });
        const indexType = d.numIndex ?? d.index;
        const indexed =
          indexType === undefined || depth >= deepest
            ? fc.constant({})
            : fc.dictionary(
                indexKeys.filter((key) => !Object.hasOwn(d.props, key) && key !== '__proto__'),
                values(indexType, hostile, depth + 1),
                { maxKeys: 3 },
              );
        const fields = fc.tuple(fc.record(model, { requiredKeys: required }) as fc.Arbitrary<Record<string, unknown>>, indexed);
        const record = fields.map(([r, extra]) => {
          const o: Record<string, unknown> = {};
          for (const [name, value] of [...Object.entries(r), ...Object.entries(extra)]) {
            Object.defineProperty(o, name === '__proto__$' ? '__proto__' : name, {
              value,
              enumerable: true,
              writable: true,
              configurable: true,
            });
          }
          return o;
        });
        return hostile ? hostileObject(record) : record;
      }
      case 'arr':
        return depth >= deepest
          ? fc.constant([])
          : fc.array(values(d.item, hostile, depth + 1), { maxLength: hostile ? 3 : (d.maxLength ?? 3) });
      case 'tuple':
        return fc
          .tuple(
            fc.tuple(...d.items.map((item) => values(item, hostile, depth + 1))),
            d.rest === undefined || depth >= deepest ? fc.constant([]) : fc.array(values(d.rest, hostile, depth + 1), { maxLength: 2 }),
          )
          .map(([head, rest]) => [...head, ...rest]);
      case 'union':
        return fc.oneof(...d.members.map((member) => values(member, hostile, depth)));
      case 'lazy':
        throw new Error('resolved above');
    }
  };
  return hostile ? fc.oneof({ weight: 3, arbitrary: fitting() }, { weight: 1, arbitrary: junk }) : fitting();
}

// ---- the serialisers the build wrote ----

const kMethods = Object.getOwnPropertySymbols((ProjectionController as unknown as { [Symbol.metadata]: object })[Symbol.metadata]).find(
  (symbol) => symbol.description === 'kiln.methods',
)!;
const declarations = (ProjectionController as unknown as { [Symbol.metadata]: Record<symbol, Map<string, { serializer?: Serializer }>> })[
  Symbol.metadata
][kMethods]!;
const plainStringify: Serializer = (value) => JSON.stringify(value) ?? 'null';
/** What a request to the route calls: its typed serialiser, or JSON.stringify when its type is written as it is. */
const serializerOf = (method: string): Serializer => declarations.get(method)?.serializer ?? plainStringify;
const asserting = assertingSerializers((method) => declarations.get(method)?.serializer);

function sent(serializer: Serializer, value: unknown): string {
  try {
    return serializer(value);
  } catch (error) {
    if (error instanceof Error && error.name === 'ResponseTypeMismatch') return 'mismatch';
    return 'throws';
  }
}

/** One drawn value through the object form, the list form (in a list of it) and the 'assert' form of its type. */
function checkAllForms(name: string, desc: Desc, hostile: boolean): void {
  const object = serializerOf(name);
  const list = serializerOf(`${name}List`);
  const listDesc = arr(desc);
  const checked = asserting[name]; // t30: typia's assert writes invalid code for a property name with a quote
  fc.assert(
    fc.property(values(desc, hostile), (value) => {
      const want = expected(value, desc);
      const got = sent(object, value);
      if (got !== want) throw new Error(`${name}: sent ${got}, the projection is ${want}`);
      const wantList = expected([value, value], listDesc);
      const gotList = sent(list, [value, value]);
      if (gotList !== wantList) throw new Error(`${name}[]: sent ${gotList}, the projection is ${wantList}`);
      if (checked !== undefined) {
        const gotChecked = sent(checked, value);
        // Only a value outside T may be refused; anything sent is the projection.
        if (gotChecked === 'mismatch' ? !hostile : gotChecked !== want) {
          throw new Error(`${name} ('assert'): sent ${gotChecked}, the projection is ${want}`);
        }
      }
      return true;
    }),
    { seed, numRuns: perKind },
  );
}

test('at least 30 declared types, each with a route of its own and one for a list of it', () => {
  assert.ok(Object.keys(declared).length >= 30);
  for (const name of Object.keys(declared)) {
    assert.ok(declarations.has(name), name);
    assert.ok(declarations.has(`${name}List`), `${name}List`);
  }
  // Every one has a typed serialiser: an index signature at the top (t31, t38) is filtered too.
  const untyped = Object.keys(declared).filter((name) => declarations.get(name)?.serializer === undefined);
  assert.equal(untyped, []);
});

test("values that fit: the body is JSON.stringify of the reference projection, in the object, list and 'assert' forms", () => {
  for (const [name, desc] of Object.entries(declared)) checkAllForms(name, desc, false);
});

test("values that do not fit: the same, and 'assert' refuses only those", () => {
  for (const [name, desc] of Object.entries(declared)) checkAllForms(name, desc, true);
});

test('no undeclared key ever leaves through an index signature: each value of a Record keeps only its declared keys', () => {
  const addressKeys = new Set(['street', 'city']);
  /** The objects the body holds where an Address is declared, for each form of index signature. */
  const addressesIn: Record<string, (body: any) => unknown[]> = {
    t21: (body) => Object.values(body.byName ?? {}),
    t37: (body) => Object.entries(body).flatMap(([key, value]) => (key === 'id' ? [] : [value])),
    t38: (body) => Object.values(body),
  };
  let checked = 0;
  for (const [name, addresses] of Object.entries(addressesIn)) {
    const serializer = serializerOf(name);
    fc.assert(
      fc.property(values(declared[name]!, true), (value) => {
        const text = sent(serializer, value);
        if (text === 'throws') return true; // a bigint: JSON cannot write it
        const body = JSON.parse(text);
        if (typeof body !== 'object' || body === null || Array.isArray(body)) return true;
        if (name === 't38')
          assert.ok(
            Object.keys(body).every((key) => String(+key) === key),
            `${name}: only number keys: ${text}`,
          );
        for (const address of addresses(body)) {
          if (typeof address !== 'object' || address === null || Array.isArray(address)) continue;
          for (const key of Object.keys(address))
            assert.ok(addressKeys.has(key), `${name}: '${key}' left through the index signature: ${text}`);
          checked++;
        }
        return true;
      }),
      { seed, numRuns: perKind },
    );
  }
  assert.ok(checked > 300, `only ${checked} objects were checked`);
});

test('while Object.prototype has an enumerable key (polluted), the interpreter projects the same', () => {
  (Object.prototype as Record<string, unknown>).isAdmin = true;
  try {
    for (const name of ['t01', 't02', 't13', 't19']) {
      const serializer = serializerOf(name);
      const desc = declared[name]!;
      fc.assert(
        fc.property(values(desc, true), (value) => sent(serializer, value) === expected(value, desc)),
        { seed, numRuns: 100 },
      );
    }
  } finally {
    delete (Object.prototype as Record<string, unknown>).isAdmin;
  }
});

test('over HTTP (socket and app.fetch) the body is the same text', async () => {
  const samples = ['t02', 't04', 't12', 't13', 't30'].flatMap((name) =>
    fc.sample(values(declared[name]!, true), { seed, numRuns: 12 }).map((value) => ({ name, value })),
  );
  const logged: unknown[] = [];
  const onError = (error: unknown) => {
    logged.push(error);
  };
  let failures = 0;
  await overBothTransports({ controllers: [ProjectionController], onError }, async (send) => {
    for (const { name, value } of samples) {
      returnNext(value);
      const reply = await send(`/p/${name}`);
      const want = expected(value, declared[name]!);
      if (value === undefined) assert.is(reply.status, 204);
      else if (want === 'throws') {
        assert.is(reply.status, 500);
        failures++;
      } else {
        assert.is(reply.status, 200, name);
        assert.is(reply.text, want, name);
      }
    }
  });
  // Each value JSON cannot write (a bigint) is reported once, naming the route.
  assert.ok(failures > 0);
  assert.is(logged.length, failures);
  for (const error of logged) {
    assert.is((error as { code?: string }).code, 'KILN046');
    assert.match(
      (error as Error).message,
      /^ProjectionController\.t\d+ \(GET \/p\/t\d+\): the return value cannot be written as JSON \(TypeError: /,
    );
  }
});

test.run();
