import { asIs, objectPrototypeClean, project, type Shape, type ShapeNode, scalarShape, setOwn } from './projection.js';

/**
 * A typed-response serialiser: the JSON text of a handler's return value, written for its return
 * type. `@kiln/core/transformer` generates one per route (docs/guide/typed-responses.md): the body
 * is `JSON.stringify` of the value keeping only the properties the type declares, so a field the
 * type does not name is never sent, and every value is escaped as JSON.stringify escapes it.
 */
export type Serializer = (value: unknown) => string;

/**
 * One node of the shape table the build writes: `[props, items, tuple, values, numericValues]`,
 * each reference a node's index, `-1` for a part written as it is, `-2` for a scalar place. The
 * last two (an index signature's) may be left out.
 */
export type ShapeRow = readonly [
  props: readonly (readonly [name: string, shape: number])[] | null,
  items: number | null,
  tuple: readonly number[] | null,
  values?: number | null,
  numericValues?: number | null,
];

/** The shapes of a table, built once at load time; references may form cycles (recursive types). */
export function shapeTable(rows: readonly ShapeRow[]): ShapeNode[] {
  const nodes: { props?: Record<string, Shape>; items?: Shape; tuple?: Shape[]; values?: Shape; numericValues?: Shape }[] = rows.map(
    () => ({}),
  );
  const ref = (index: number): Shape => (index === -1 ? asIs : index === -2 ? scalarShape : nodes[index]!);
  rows.forEach(([props, items, tuple, values, numericValues], index) => {
    const node = nodes[index]!;
    if (props !== null) {
      const dictionary: Record<string, Shape> = Object.create(null);
      for (const [name, shape] of props) dictionary[name] = ref(shape);
      node.props = dictionary;
    }
    if (items !== null) node.items = ref(items);
    if (tuple !== null) node.tuple = tuple.map(ref);
    if (values !== undefined && values !== null) node.values = ref(values);
    if (numericValues !== undefined && numericValues !== null) node.numericValues = ref(numericValues);
  });
  return nodes;
}

/** What a generated projector is given: the shapes, and the helpers its code calls off its fast path. */
export interface ProjectorKit {
  readonly shapes: readonly ShapeNode[];
  readonly project: typeof project;
  readonly setOwn: typeof setOwn;
  readonly scalar: ShapeNode;
}

/** A projector of the root shape (`shapes[0]`) for a value and the key JSON.stringify would pass. */
export type Projector = (value: unknown, key: string) => unknown;

/**
 * The serialiser `@kiln/core/transformer` writes for a return type: `JSON.stringify` of the value
 * projected to the type. `build` is the projector generated for the type's shapes (plain
 * property-by-property code); while `Object.prototype` has an enumerable key (polluted), the
 * slower interpreter over the same shapes is used, whose `for...in` is not misled by it.
 */
export function projectingSerializer(rows: readonly ShapeRow[], build: (kit: ProjectorKit) => Projector): Serializer {
  const shapes = shapeTable(rows);
  const root = shapes[0]!;
  const fast = build({ shapes, project, setOwn, scalar: scalarShape });
  return (value) => JSON.stringify(objectPrototypeClean() ? fast(value, '') : project(value, root, '')) ?? 'null';
}

/**
 * The value of a route under `typedResponses: 'assert'` did not fit its declared type: the
 * request answers 500, reported as KILN047 with the path of the first mismatch.
 */
export class ResponseTypeMismatch extends Error {
  override name = 'ResponseTypeMismatch';
  constructor(
    /** Where in the value, typia's notation: `$input.items[0].name`. */
    readonly path: string,
    readonly expected: string,
    cause: unknown,
  ) {
    super(`the return value does not fit its declared type at ${path} (expected ${expected})`, { cause });
  }
}

/**
 * `typedResponses: 'assert'`: typia's check of the value against the return type (written at
 * build time), then the same projection as the default. A value that does not fit throws
 * {@link ResponseTypeMismatch}.
 */
export function assertingSerializer(assert: (value: unknown) => unknown, serialize: Serializer): Serializer {
  return (value) => {
    try {
      assert(value);
    } catch (error) {
      const { path, expected } = (error ?? {}) as { path?: unknown; expected?: unknown };
      if (typeof path === 'string') throw new ResponseTypeMismatch(path, String(expected), error);
      throw error;
    }
    return serialize(value);
  };
}
