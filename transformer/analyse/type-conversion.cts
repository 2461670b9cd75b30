import type * as ts from 'typescript';
import type { Conversion, ItemConversion, TypeTag } from './model.cjs';
import type { Toolkit } from '../toolkit.cjs';

/**
 * A declared type's conversion, or why Kiln refuses it. `check` says what typia checks after the
 * conversion: the typia tags of a scalar or of an array's items, or the declared object type of a
 * JSON value (`item` when the parameter is an array of them).
 */
export type DeclaredConversion =
  | { readonly ok: true; readonly conversion: Conversion; readonly admitsUndefined: boolean; readonly check?: DeclaredCheck }
  | { readonly ok: false; readonly reason: string };

export interface DeclaredCheck {
  readonly kind: 'tags' | 'type';
  /** Whether the checked type is an array's item type (`(number & Type<'int32'>)[]`, `Filter[]`). */
  readonly item: boolean;
  readonly tags: readonly TypeTag[];
}

/** A scalar type with typia tags: `number & tags.Maximum<100>` is the base `number` and its tags. */
interface Tagged {
  readonly base: ts.Type;
  readonly tags: readonly TypeTag[];
}

/** typia's phantom property on every tag (`TagBase`): `"typia.tag"?: { kind, value, ... }`. */
const typiaTagProperty = 'typia.tag';

function isDefaultLibrary(tk: Toolkit, symbol: ts.Symbol): boolean {
  return (symbol.declarations ?? []).some((d) => tk.program.isSourceFileDefaultLibrary(d.getSourceFile()));
}

function isGlobalDate(tk: Toolkit, type: ts.Type): boolean {
  const symbol = type.getSymbol();
  return symbol?.getName() === 'Date' && isDefaultLibrary(tk, symbol);
}

/** The typia tag an intersection member is (`tags.Maximum<100>`), read from its phantom property. */
function tagOf(tk: Toolkit, member: ts.Type): TypeTag | undefined {
  const property = member.getProperty(typiaTagProperty);
  if (property === undefined) return undefined;
  const props = tk.checker.getNonNullableType(tk.checker.getTypeOfSymbol(property));
  const read = (name: string): ts.Type | undefined => {
    const symbol = props.getProperty(name);
    return symbol === undefined ? undefined : tk.checker.getTypeOfSymbol(symbol);
  };
  const kind = read('kind');
  if (kind === undefined || !kind.isStringLiteral()) return undefined;
  const value = read('value');
  return { kind: kind.value, value: value === undefined ? undefined : literalOf(tk, value), text: tk.checker.typeToString(member) };
}

function literalOf(tk: Toolkit, type: ts.Type): TypeTag['value'] {
  const { TypeFlags } = tk.ts;
  if (type.isStringLiteral() || type.isNumberLiteral()) return type.value;
  if (type.flags & TypeFlags.BooleanLiteral) return tk.checker.typeToString(type) === 'true';
  if (type.flags & TypeFlags.BigIntLiteral) return tk.checker.typeToString(type);
  return undefined;
}

/** `number & tags.Minimum<1>`: an intersection of one non-tag member and typia tags. */
function taggedOf(tk: Toolkit, type: ts.Type): Tagged | undefined {
  if (!type.isIntersection()) return undefined;
  const tags: TypeTag[] = [];
  const rest: ts.Type[] = [];
  for (const member of type.types) {
    const tag = tagOf(tk, member);
    if (tag === undefined) rest.push(member);
    else tags.push(tag);
  }
  return tags.length > 0 && rest.length === 1 ? { base: rest[0]!, tags } : undefined;
}

/**
 * The checker orders a union's members by creation, which varies between programs; messages list
 * allowed values in the order they were written: enum members by declaration, literals as they
 * appear in the parameter's type annotation.
 */
function writtenOrder(tk: Toolkit, parts: readonly ts.Type[], typeNode: ts.TypeNode | undefined): ts.Type[] {
  const written: (string | number)[] = [];
  const visit = (node: ts.Node): void => {
    if (tk.ts.isLiteralTypeNode(node)) {
      const type = tk.checker.getTypeFromTypeNode(node);
      if (type.isLiteral()) written.push(type.value as string | number);
    }
    tk.ts.forEachChild(node, visit);
  };
  if (typeNode !== undefined) visit(typeNode);
  const key = (type: ts.Type): number => {
    const declaration = type.getSymbol()?.declarations?.[0];
    if (declaration !== undefined && tk.ts.isEnumMember(declaration)) return declaration.getStart();
    const index = written.indexOf((type as ts.LiteralType).value as string | number);
    return index === -1 ? Number.MAX_SAFE_INTEGER : index;
  };
  return [...parts].sort((a, b) => key(a) - key(b));
}

/** Built-in classes with advice on what to declare instead. */
const builtInAdvice: Readonly<Record<string, string>> = {
  Map: 'declare a Record<string, T> (a JSON object) instead',
  WeakMap: 'declare a Record<string, T> (a JSON object) instead',
  Set: 'declare an array (T[]) instead',
  WeakSet: 'declare an array (T[]) instead',
  RegExp: "declare string & tags.Format<'regex'> and build the RegExp in the handler",
  Promise: 'declare the value itself',
  URL: "declare string & tags.Format<'uri'> and build the URL in the handler",
};

/**
 * Why a type (a scalar, an array item, a union member) cannot be built from request text, or
 * `undefined` when it can. `printed` is the whole declared type as messages show it.
 */
function refusalOf(tk: Toolkit, type: ts.Type): string | undefined {
  const { TypeFlags } = tk.ts;
  const printed = `'${tk.checker.typeToString(type)}'`;
  if (type.flags & TypeFlags.BigIntLike)
    return `${printed}: request text has no bigint form; declare number, or string & tags.Pattern<'^-?[0-9]+$'> and call BigInt() in the handler`;
  if (type.flags & TypeFlags.ESSymbolLike) return `${printed}: a symbol cannot come from a request; declare string`;
  if (type.flags & (TypeFlags.Never | TypeFlags.Void)) return `${printed} has no value a request could give; declare string`;
  if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0)
    return `${printed}: a function cannot come from a request; declare string and look the function up in the handler`;
  const symbol = type.getSymbol();
  const isArray = tk.checker.isArrayType(type) || tk.checker.isTupleType(type);
  if (symbol !== undefined && !isArray && !isGlobalDate(tk, type)) {
    const advice = builtInAdvice[symbol.getName()];
    if (advice !== undefined && isDefaultLibrary(tk, symbol))
      return `${printed} is a ${symbol.getName()}, which request text (or JSON) never gives; ${advice}`;
    if (isClassInstance(tk, symbol)) {
      return `${printed} is an instance of a class, which request text (or JSON) never gives: only its data can arrive, as a plain object; declare an interface or type alias (JSON-parsed and validated) and construct the instance in the handler`;
    }
  }
  return undefined;
}

/** A class's instance type (user class, or a built-in such as `Map` declared as interface + constructor variable). */
function isClassInstance(tk: Toolkit, symbol: ts.Symbol): boolean {
  const { SymbolFlags } = tk.ts;
  if (symbol.flags & SymbolFlags.Class) return true;
  if (!(symbol.flags & SymbolFlags.Interface) || !(symbol.flags & SymbolFlags.Variable)) return false;
  const value = symbol.valueDeclaration;
  return value !== undefined && tk.checker.getTypeOfSymbolAtLocation(symbol, value).getConstructSignatures().length > 0;
}

/** What one item (or union member) converts as, before members are combined. */
type Kind = ItemConversion['kind'] | 'array';

function isJsonObject(tk: Toolkit, type: ts.Type): boolean {
  const { TypeFlags } = tk.ts;
  if (type.flags & TypeFlags.NonPrimitive) return true;
  return !!(type.flags & (TypeFlags.Object | TypeFlags.Intersection)) && !tk.checker.isArrayType(type);
}

function kindOf(tk: Toolkit, type: ts.Type): Kind | { refused: string } {
  const { TypeFlags } = tk.ts;
  const refused = refusalOf(tk, type);
  if (refused !== undefined) return { refused };
  // A tagged member of a union (`boolean & tags.X` is `(true & X) | (false & X)`): one scalar only.
  if (taggedOf(tk, type) !== undefined) {
    return {
      refused: `'${tk.checker.typeToString(type)}' is a tagged member of a union; typia tags are supported on one string or number (or its array items)`,
    };
  }
  if (type.flags & (TypeFlags.StringLiteral | TypeFlags.NumberLiteral)) return 'enum';
  if (type.flags & TypeFlags.BooleanLiteral) return 'boolean';
  if (type.flags & TypeFlags.StringLike) return 'text';
  if (type.flags & TypeFlags.NumberLike) return 'number';
  if (isGlobalDate(tk, type)) return 'date';
  if (tk.checker.isArrayType(type)) return 'array';
  if (isJsonObject(tk, type)) return 'json';
  return { refused: `'${tk.checker.typeToString(type)}' cannot be converted from request text` };
}

const kindNames: Readonly<Record<Kind, string>> = {
  text: 'text',
  number: 'number',
  boolean: 'boolean',
  date: 'Date',
  json: 'JSON object',
  enum: 'literal',
  array: 'array',
};

/** The conversion of one item type (a scalar parameter, or an array's element), its tags, or why it is refused. */
function itemConversionOf(
  tk: Toolkit,
  parts: readonly ts.Type[],
  typeNode: ts.TypeNode | undefined,
  printed: string,
): { item: ItemConversion; tags?: readonly TypeTag[] } | { refused: string } {
  if (parts.length === 1) {
    const tagged = taggedOf(tk, parts[0]!);
    if (tagged !== undefined) {
      const base = kindOf(tk, tagged.base);
      if (base === 'text' || base === 'number') return { item: { kind: base }, tags: tagged.tags };
      if (base === 'json') return { item: { kind: 'json' } }; // tags of an object type: typia checks them with the type
      return {
        refused: `'${printed}': typia tags are supported on string and number parameters (and items), not on ${tk.checker.typeToString(tagged.base)}`,
      };
    }
  }
  const kinds = parts.map((part) => kindOf(tk, part));
  const refused = kinds.find((k): k is { refused: string } => typeof k === 'object');
  if (refused !== undefined) return refused;
  const distinct = [...new Set(kinds as Kind[])];
  if (distinct.length === 1 && distinct[0] !== 'array') {
    const kind = distinct[0]!;
    if (kind === 'enum') {
      const values = writtenOrder(tk, parts, typeNode).map((t) => (t as ts.LiteralType).value as string | number);
      return { item: { kind: 'enum', values } };
    }
    if (kind === 'boolean' || kind === 'json' || parts.length === 1) return { item: { kind } };
  }
  if (distinct.length === 1 && distinct[0] === 'array') {
    return {
      refused: `'${printed}' is an array of arrays, which repeated request text cannot express; repeat the key for one level (number[]), or send JSON and declare an object type`,
    };
  }
  const named = [...new Set((kinds as Kind[]).map((k) => kindNames[k]))];
  return {
    refused:
      `'${printed}' mixes conversions (${named.join(', ')}), so Kiln cannot tell how to read the text; ` +
      'declare one of them (e.g. string) and convert in the handler, or a union of literals',
  };
}

function withoutAbsent(tk: Toolkit, type: ts.Type): { parts: ts.Type[]; admitsUndefined: boolean } {
  const { TypeFlags } = tk.ts;
  const all = type.isUnion() ? type.types : [type];
  const admitsUndefined = all.some((t) => t.flags & (TypeFlags.Undefined | TypeFlags.Void));
  return { parts: all.filter((t) => !(t.flags & (TypeFlags.Undefined | TypeFlags.Void | TypeFlags.Null))), admitsUndefined };
}

function checkOf(item: ItemConversion, tags: readonly TypeTag[] | undefined, isItem: boolean): DeclaredCheck | undefined {
  if (tags !== undefined && tags.length > 0) return { kind: 'tags', item: isItem, tags };
  if (item.kind === 'json') return { kind: 'type', item: isItem, tags: [] };
  return undefined;
}

/**
 * Chooses the conversion of a query, route-parameter or header value from its declared type:
 * `string`, `boolean`, `number`, `Date`, object types (JSON text), arrays of those, enums and
 * unions of string or number literals, string and number with typia tags. `undefined`/`null` in a
 * union only make it optional. Everything else is refused with the reason and what to declare.
 */
export function conversionOfType(tk: Toolkit, type: ts.Type, typeNode: ts.TypeNode | undefined): DeclaredConversion {
  const { TypeFlags } = tk.ts;
  if (type.flags & (TypeFlags.Any | TypeFlags.Unknown)) return { ok: true, conversion: { kind: 'raw' }, admitsUndefined: true };
  const { parts, admitsUndefined } = withoutAbsent(tk, type);
  const printed = tk.checker.typeToString(tk.checker.getNonNullableType(type));
  if (parts.length === 0)
    return { ok: false, reason: `'${tk.checker.typeToString(type)}' has no value a request could give; declare string` };
  const single = parts.length === 1 ? parts[0] : undefined;
  if (single !== undefined && tk.checker.isArrayType(single)) {
    const element = tk.checker.getTypeArguments(single as ts.TypeReference)[0];
    if (element === undefined) return { ok: false, reason: `'${printed}' cannot be converted from request text` };
    const items = withoutAbsent(tk, element).parts;
    const answer = itemConversionOf(tk, items, typeNode, tk.checker.typeToString(element));
    if ('refused' in answer) {
      const nested = items.some((t) => tk.checker.isArrayType(t) || tk.checker.isTupleType(t));
      return {
        ok: false,
        reason: nested
          ? `'${printed}' is an array of arrays, which repeated request text cannot express; repeat the key for one level (number[]), or send one JSON text and declare an object type`
          : `the items of '${printed}' cannot be converted: ${answer.refused}`,
      };
    }
    const check = checkOf(answer.item, answer.tags, true);
    return { ok: true, conversion: { kind: 'array', item: answer.item }, admitsUndefined, ...(check === undefined ? {} : { check }) };
  }
  if (single !== undefined) {
    const tagged = taggedOf(tk, single);
    if (tagged !== undefined && tk.checker.isArrayType(tagged.base)) {
      return {
        ok: false,
        reason: `'${printed}': typia tags on an array parameter (MinItems, MaxItems, UniqueItems) are not checked by Kiln; tag the items, or check the length in the handler`,
      };
    }
  }
  const answer = itemConversionOf(tk, parts, typeNode, printed);
  if ('refused' in answer) return { ok: false, reason: answer.refused };
  const check = checkOf(answer.item, answer.tags, false);
  return { ok: true, conversion: answer.item, admitsUndefined, ...(check === undefined ? {} : { check }) };
}
