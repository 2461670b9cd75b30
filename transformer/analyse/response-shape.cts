// Analyse stage for typed responses: a return type, walked with the checker, as the plain-data
// "shape" the projection filters by (src/response/projection.ts): at each place, the properties an
// object keeps (an index signature's values each projected to its type) and the shape of an
// array's items. A part that cannot be filtered (any, object, a class with toJSON, a type
// parameter, a template-literal index signature...) is written as it is, and named so that the
// build can warn at its declaration (KILN152).
import type * as ts from 'typescript';
import type { Toolkit } from '../toolkit.cjs';

/** A node of the shape graph; graphs of recursive types are cyclic. A node with nothing is a scalar place. */
export interface ShapeNode {
  readonly id: number;
  props?: Map<string, ShapeRef>;
  /** A string index signature's value: every own property `props` does not name. */
  values?: ShapeRef;
  /** A number index signature's value: the properties whose names are numbers, ahead of `values`. */
  numericValues?: ShapeRef;
  items?: ShapeRef;
  tuple?: ShapeRef[];
}

/** `'asIs'`: written as it is. `'scalar'`: a scalar place (an object there keeps no property). */
export type ShapeRef = 'asIs' | 'scalar' | ShapeNode;

/** A part of a return type written as it is, and where the build says so. */
export interface UnfilterablePart {
  /** Where to warn: the declaration of the property holding the part, or the handler's name. */
  readonly site: ts.Node;
  /** `meta`, `items[].data`, or '' for the value itself. */
  readonly path: string;
  /** What the part is, in words: `object`, `an index signature`... */
  readonly what: string;
}

export interface ResponseShape {
  readonly root: ShapeRef;
  readonly unfilterable: readonly UnfilterablePart[];
}

/** Nesting deeper than this is written as it is (instantiations of a recursive generic type never end). */
const deepest = 32;

/** Built-in classes whose values JSON.stringify writes in its own way: written as they are. */
const opaqueClasses = new Set([
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'RegExp',
  'Promise',
  'Response',
  'ReadableStream',
  'Blob',
  'Buffer',
  'Uint8Array',
  'ArrayBuffer',
  'Error',
]);

/** The shape of a handler's awaited return type; `site` is the handler's name. */
export function responseShape(tk: Toolkit, type: ts.Type, site: ts.Node): ResponseShape {
  // A returned Response is sent as it is, never serialised: only the other members are.
  return shapeOfMembers(
    tk,
    (type.isUnion() ? type.types : [type]).filter((member) => !isWebResponse(member)),
    site,
  );
}

/** The shape of a union of `members` (the data types of an event stream's events, one per member). */
export function shapeOfMembers(tk: Toolkit, members: readonly ts.Type[], site: ts.Node): ResponseShape {
  const walk = new ShapeWalk(tk);
  if (members.length === 0) return { root: 'asIs', unfilterable: [] };
  const root = walk.union(members.map((member) => walk.shapeOf(member, '', site, 0)));
  walk.resolveUnions();
  return { root, unfilterable: walk.unfilterable };
}

/** Whether a property name is a number's, as a number index signature applies (`'7'`, `'-1.5'`). */
function isNumericKey(name: string): boolean {
  return String(+name) === name;
}

function isWebResponse(type: ts.Type): boolean {
  const symbol = type.getSymbol();
  return symbol?.name === 'Response' && fromLibrary(symbol);
}

/** Whether a type is declared by TypeScript's libraries or a package (not by the program's own code). */
function fromLibrary(symbol: ts.Symbol | undefined): boolean {
  return (symbol?.declarations ?? []).some((d) => d.getSourceFile().isDeclarationFile);
}

interface UnionNode extends ShapeNode {
  /** The object nodes of the union's members, flattened; resolved into props/items after the walk. */
  readonly members: readonly ShapeNode[];
}

class ShapeWalk {
  private nextId = 0;
  private readonly byType = new Map<ts.Type, ShapeRef>();
  private readonly unions = new Map<string, UnionNode>();
  private readonly pending: UnionNode[] = [];
  readonly unfilterable: UnfilterablePart[] = [];

  constructor(private readonly tk: Toolkit) {}

  private node(): ShapeNode {
    return { id: this.nextId++ };
  }

  private asIs(path: string, site: ts.Node, what: string): 'asIs' {
    this.unfilterable.push({ site, path, what });
    return 'asIs';
  }

  shapeOf(type: ts.Type, path: string, site: ts.Node, depth: number): ShapeRef {
    const known = this.byType.get(type);
    if (known !== undefined) return known;
    const { ts: tsi, checker } = this.tk;
    const f = type.flags;
    if (depth > deepest) return this.asIs(path, site, 'a type nested too deep to follow');
    const scalar =
      tsi.TypeFlags.StringLike |
      tsi.TypeFlags.NumberLike |
      tsi.TypeFlags.BooleanLike |
      tsi.TypeFlags.EnumLike |
      tsi.TypeFlags.BigIntLike |
      tsi.TypeFlags.ESSymbolLike |
      tsi.TypeFlags.Null |
      tsi.TypeFlags.Undefined |
      tsi.TypeFlags.Void;
    if (f & scalar) return 'scalar';
    if (f & tsi.TypeFlags.Any) return this.asIs(path, site, 'any');
    if (f & tsi.TypeFlags.Unknown) return this.asIs(path, site, 'unknown');
    if (f & tsi.TypeFlags.Never) return this.asIs(path, site, 'never (an empty array literal is never[]: declare its item type)');
    if (f & tsi.TypeFlags.NonPrimitive) return this.asIs(path, site, 'object');
    if (type.isUnion()) {
      const members = type.types.map((member) => this.shapeOf(member, path, site, depth + 1));
      return this.union(members);
    }
    if (type.isIntersection() && type.types.some((member) => member.flags & scalar)) return 'scalar'; // a branded primitive
    if (!(f & (tsi.TypeFlags.Object | tsi.TypeFlags.Intersection))) {
      const what = f & tsi.TypeFlags.TypeParameter ? `the type parameter ${checker.typeToString(type)}` : checker.typeToString(type);
      return this.asIs(path, site, what);
    }
    if (checker.isArrayType(type)) {
      const node = this.node();
      this.byType.set(type, node);
      node.items = this.shapeOf(checker.getTypeArguments(type as ts.TypeReference)[0]!, `${path}[]`, site, depth + 1);
      return node;
    }
    if (checker.isTupleType(type)) return this.tupleShape(type as ts.TupleTypeReference, path, site, depth);
    const symbol = type.getSymbol();
    if (symbol?.name === 'Date' && fromLibrary(symbol)) return 'scalar'; // written by its toJSON, an ISO string
    if (symbol !== undefined && opaqueClasses.has(symbol.name) && fromLibrary(symbol)) return this.asIs(path, site, symbol.name);
    if (checker.getSignaturesOfType(type, tsi.SignatureKind.Call).length > 0) return 'scalar'; // a function: JSON leaves it out
    const properties = checker.getPropertiesOfType(type);
    if (properties.some((p) => p.name === 'toJSON')) return this.asIs(path, site, 'a value with toJSON');
    const indexes = checker.getIndexInfosOfType(type);
    // A template-literal key (`[k: \`data-${string}\`]: T`) would need its pattern matched at run time.
    const patterned = indexes.find(
      (info) => !(info.keyType.flags & (tsi.TypeFlags.String | tsi.TypeFlags.Number | tsi.TypeFlags.ESSymbol)),
    );
    if (patterned !== undefined) return this.asIs(path, site, `an index signature of ${checker.typeToString(patterned.keyType)} keys`);
    if (properties.length === 0 && indexes.length === 0) return this.asIs(path, site, '{}');
    const node = this.node();
    this.byType.set(type, node);
    for (const info of indexes) {
      // A symbol key is never written by JSON.stringify: its signature keeps nothing.
      if (info.keyType.flags & tsi.TypeFlags.ESSymbol) continue;
      const numeric = (info.keyType.flags & tsi.TypeFlags.Number) !== 0;
      const declaration = info.declaration;
      const indexSite = declaration !== undefined && !declaration.getSourceFile().isDeclarationFile ? declaration : site;
      const shape = this.shapeOf(info.type, `${path}[${numeric ? 'number' : 'string'}]`, indexSite, depth + 1);
      if (numeric) node.numericValues = shape;
      else node.values = shape;
    }
    node.props = new Map();
    for (const property of properties) {
      if (property.flags & tsi.SymbolFlags.Method) continue;
      const name = property.name;
      if (name.startsWith('__@') || name.startsWith('typia.')) continue; // symbol keys (never written), typia's tags
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      const propertySite = declaration !== undefined && !declaration.getSourceFile().isDeclarationFile ? declaration : site;
      const propertyPath = path === '' ? name : `${path}.${name}`;
      node.props.set(name, this.shapeOf(checker.getTypeOfSymbol(property), propertyPath, propertySite, depth + 1));
    }
    return node;
  }

  private tupleShape(type: ts.TupleTypeReference, path: string, site: ts.Node, depth: number): ShapeRef {
    const { ts: tsi, checker } = this.tk;
    const node = this.node();
    this.byType.set(type, node);
    const elements = checker.getTypeArguments(type);
    const flags = type.target.elementFlags;
    const leading: ShapeRef[] = [];
    const rest: ShapeRef[] = [];
    elements.forEach((element, i) => {
      const shape = this.shapeOf(element, `${path}[${i}]`, site, depth + 1);
      if (rest.length === 0 && !(flags[i]! & tsi.ElementFlags.Variable)) leading.push(shape);
      else rest.push(shape);
    });
    node.tuple = leading;
    // Items from a rest element on may be any of the rest's or the trailing elements' types.
    if (rest.length > 0) node.items = this.union(rest);
    return node;
  }

  /**
   * A union of types: a value is kept as any member would keep it. Scalars add nothing; objects of
   * several members keep every property some member declares (each with the union of its
   * members' shapes), arrays the union of their item shapes.
   */
  union(members: readonly ShapeRef[]): ShapeRef {
    if (members.includes('asIs')) return 'asIs';
    const nodes = new Map<number, ShapeNode>();
    for (const member of members) {
      if (member === 'scalar' || member === 'asIs') continue;
      for (const base of 'members' in member ? (member as UnionNode).members : [member]) nodes.set(base.id, base);
    }
    if (nodes.size === 0) return 'scalar';
    if (nodes.size === 1) return [...nodes.values()][0]!;
    const key = [...nodes.keys()].sort((a, b) => a - b).join(',');
    let union = this.unions.get(key);
    if (union === undefined) {
      union = { id: this.nextId++, members: [...nodes.values()] };
      this.unions.set(key, union);
      this.pending.push(union);
    }
    return union;
  }

  /** Fills each union node from its members, once every member is complete (recursive types included). */
  resolveUnions(): void {
    for (let i = 0; i < this.pending.length; i++) {
      const union = this.pending[i]!;
      const props = new Map<string, ShapeRef[]>();
      const values: ShapeRef[] = [];
      const numericValues: ShapeRef[] = [];
      const items: ShapeRef[] = [];
      let hasObject = false;
      let hasArray = false;
      for (const member of union.members) {
        if (member.props !== undefined) {
          hasObject = true;
          for (const [name, shape] of member.props) props.set(name, [...(props.get(name) ?? []), shape]);
        }
        if (member.values !== undefined) values.push(member.values);
        if (member.numericValues !== undefined) numericValues.push(member.numericValues);
        if (member.items !== undefined || member.tuple !== undefined) {
          hasArray = true;
          items.push(...(member.tuple ?? []));
          if (member.items !== undefined) items.push(member.items);
        }
      }
      // A key one member names and another's index signature covers is kept as either would keep it.
      const numberKeyed = [...numericValues, ...values];
      if (values.length > 0) union.values = this.union(values);
      if (numberKeyed.length > 0 && numericValues.length > 0) union.numericValues = this.union(numberKeyed);
      if (hasObject)
        union.props = new Map(
          [...props].map(([name, shapes]) => [name, this.union([...shapes, ...(isNumericKey(name) ? numberKeyed : values)])]),
        );
      if (hasArray) union.items = items.length === 0 ? 'scalar' : this.union(items);
    }
  }
}
