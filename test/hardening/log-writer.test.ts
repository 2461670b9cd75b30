// Kiln's JSON log writer, for every hostile value (fast-check, seeded): no call throws, whatever
// it is given (a getter, toJSON, toString or valueOf that throws, Proxies whose traps throw,
// revoked Proxies, Errors with throwing fields, cycles, bigints, symbols, boxed primitives with a
// changed Symbol.toStringTag, nesting deep enough to overflow JSON.stringify: 10,000 levels), in fields, as the
// message, as printf arguments and in a child's bindings; and every line it writes is one JSON
// object with the level and time.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { createLogger, type Logger } from '@kiln/core';

const seed = 20261127;

function thrower(label: string): () => never {
  return () => {
    throw new Error(`hostile ${label}`);
  };
}

const trapNames = ['get', 'has', 'ownKeys', 'getOwnPropertyDescriptor', 'getPrototypeOf'] as const;

// fast-check draws a recipe (plain data) and the property builds the hostile value from it:
// fast-check itself reads the values it draws, and hostile ones would make it throw.
type Recipe =
  | {
      readonly leaf: 'string' | 'number' | 'bigint' | 'null' | 'undefined' | 'symbol' | 'function';
      readonly text: string;
      readonly n: number;
    }
  | { readonly wrap: Wrapper; readonly inner: Recipe; readonly traps: readonly string[] };

const wrappers = [
  'getter',
  'toJSON',
  'toString',
  'proxy',
  'revoked',
  'error',
  'plainError',
  'cycle',
  'toJSONBoxed',
  'boxedTag',
  'deep',
  'twice',
] as const;
type Wrapper = (typeof wrappers)[number];

function build(recipe: Recipe): unknown {
  if ('leaf' in recipe) {
    const { text, n } = recipe;
    return { string: text, number: n, bigint: BigInt(Math.trunc(n) || 1), null: null, undefined, symbol: Symbol(text), function: () => n }[
      recipe.leaf
    ];
  }
  const value = build(recipe.inner);
  switch (recipe.wrap) {
    case 'getter':
      return Object.defineProperty({ value }, 'boom', { get: thrower('getter'), enumerable: true });
    case 'toJSON':
      return { value, toJSON: thrower('toJSON') };
    case 'toString':
      return { value, toString: thrower('toString'), valueOf: thrower('valueOf') };
    case 'proxy': {
      const handler: ProxyHandler<object> = {};
      for (const trap of recipe.traps) (handler as Record<string, unknown>)[trap] = thrower(`${trap} trap`);
      return new Proxy({ value }, handler);
    }
    case 'revoked': {
      const revocable = Proxy.revocable({ value }, {});
      revocable.revoke();
      return revocable.proxy;
    }
    case 'error': {
      const error = new Error('hostile error', { cause: value });
      Object.defineProperty(error, 'message', { get: thrower('message') });
      Object.defineProperty(error, 'code', { get: thrower('code'), enumerable: true });
      return error;
    }
    case 'plainError':
      return Object.assign(new TypeError('plain'), { detail: value });
    case 'cycle': {
      const cycle: Record<string, unknown> = { value };
      cycle.self = cycle;
      return cycle;
    }
    case 'toJSONBoxed':
      return { value, toJSON: () => ({ back: value, boxed: Object(7n) }) };
    case 'boxedTag':
      return Object.defineProperty(
        Object(['string', 'number', 'bigint', 'boolean'].includes(typeof value) ? value : 1n),
        Symbol.toStringTag,
        {
          value: 'Changed',
        },
      );
    case 'deep': {
      let deep: unknown = value;
      for (let i = 0; i < 10_000; i++) deep = { deep };
      return deep;
    }
    case 'twice':
      return [value, value];
  }
}

const leaf: fc.Arbitrary<Recipe> = fc.record({
  leaf: fc.constantFrom('string', 'number', 'bigint', 'null', 'undefined', 'symbol', 'function'),
  text: fc.string(),
  n: fc.double({ noNaN: true, noDefaultInfinity: true }),
});
const { recipe } = fc.letrec<{ recipe: Recipe }>((tie) => ({
  recipe: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({ wrap: fc.constantFrom(...wrappers), inner: tie('recipe'), traps: fc.subarray([...trapNames], { minLength: 1 }) }),
  ),
}));

/** Each way a value reaches the writer. */
const calls: ReadonlyArray<(log: Logger, value: unknown) => void> = [
  (log, value) => log.info(value as object),
  (log, value) => log.warn({ field: value, other: 1 }, 'with a field'),
  (log, value) => log.error(value as object, 'message %s %d %i %f %j %o %O %%', value, value, value, value, value, value, value),
  (log, value) => log.info('as arguments %s %j', value, value),
  (log, value) => log.debug({ field: value }, value as string),
  (log, value) =>
    log
      .child({ bound: value })
      .child(value as Record<string, unknown>)
      .info({ field: value }, 'from a child'),
];

test('hostile values: no log call throws, every line written is one JSON object with level and time', () => {
  const written: string[] = [];
  const log = createLogger({ pino: false, level: 'trace', destination: { write: (line: string) => void written.push(line) } });
  let count = 0;
  fc.assert(
    fc.property(recipe, fc.integer({ min: 0, max: calls.length - 1 }), (drawn, call) => {
      written.length = 0;
      calls[call]!(log, build(drawn));
      assert.is(written.length, 1, 'one line per call');
      const line = written[0]!;
      assert.ok(line.endsWith('}\n') && !line.slice(0, -1).includes('\n'), 'one line');
      const parsed = JSON.parse(line);
      assert.type(parsed.level, 'number');
      assert.type(parsed.time, 'number');
      count++;
    }),
    { seed, numRuns: 1_000 },
  );
  assert.is(count, 1_000);
});

test('the parts that throw are written as "[Unserializable]", the rest as they are', () => {
  const written: Record<string, unknown>[] = [];
  const log = createLogger({ pino: false, destination: { write: (line: string) => void written.push(JSON.parse(line)) } });
  const user = Object.defineProperty({ id: 7, name: 'ann' }, 'secret', { get: thrower('getter'), enumerable: true });
  const error = Object.defineProperty(new Error('saving failed'), 'code', { get: thrower('code'), enumerable: true });
  log.info({ user, count: 2 }, 'signed in');
  log.error(error);
  log.info({ tag: Object.defineProperty(Object(3), Symbol.toStringTag, { value: 'Other' }) }, 'boxed');
  log.child({ request: new Proxy({}, { ownKeys: thrower('ownKeys') }) }).info({ toJSON: thrower('toJSON') }, 'child');
  const [signedIn, failed, boxed, child] = written.map(({ time: _t, pid: _p, hostname: _h, ...rest }) => rest);
  assert.equal(signedIn, { level: 30, user: { id: 7, name: 'ann', secret: '[Unserializable]' }, count: 2, msg: 'signed in' });
  assert.equal(
    [failed!.msg, (failed!.err as Record<string, unknown>).message, (failed!.err as Record<string, unknown>).code],
    ['saving failed', 'saving failed', '[Unserializable]'],
  );
  assert.equal(boxed, { level: 30, tag: 3, msg: 'boxed' });
  assert.equal(child, { level: 30, request: '[Unserializable]', msg: 'child' });
});

test.run();
