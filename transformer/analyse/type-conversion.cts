import type * as ts from 'typescript';
import type { Conversion, ItemConversion } from './model.cjs';
import type { Toolkit } from '../toolkit.cjs';

export type DeclaredConversion =
  | { readonly ok: true; readonly conversion: Conversion; readonly admitsUndefined: boolean }
  | { readonly ok: false; readonly reason: string };

function isGlobalDate(tk: Toolkit, type: ts.Type): boolean {
  const symbol = type.getSymbol();
  if (symbol?.getName() !== 'Date') return false;
  return (symbol.declarations ?? []).some((d) => tk.program.isSourceFileDefaultLibrary(d.getSourceFile()));
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

/** The conversion of one item type (a scalar parameter, or an array's element). */
function itemConversionOf(tk: Toolkit, parts: readonly ts.Type[], typeNode: ts.TypeNode | undefined): ItemConversion | undefined {
  const { TypeFlags } = tk.ts;
  if (parts.length === 0) return undefined;
  if (parts.every((t) => t.flags & TypeFlags.BooleanLiteral)) return { kind: 'boolean' };
  if (parts.every((t) => t.flags & (TypeFlags.StringLiteral | TypeFlags.NumberLiteral))) {
    const values = writtenOrder(tk, parts, typeNode).map((t) => (t as ts.LiteralType).value as string | number);
    return { kind: 'enum', values };
  }
  if (parts.length !== 1) return undefined;
  const [type] = parts as [ts.Type];
  if (type.flags & TypeFlags.String) return { kind: 'text' };
  if (type.flags & TypeFlags.Number) return { kind: 'number' };
  if (isGlobalDate(tk, type)) return { kind: 'date' };
  if (tk.checker.isArrayType(type)) return undefined;
  if (type.flags & TypeFlags.NonPrimitive) return { kind: 'json' };
  if (type.flags & (TypeFlags.Object | TypeFlags.Intersection) && type.getCallSignatures().length === 0) return { kind: 'json' };
  return undefined;
}

function withoutAbsent(tk: Toolkit, type: ts.Type): { parts: ts.Type[]; admitsUndefined: boolean } {
  const { TypeFlags } = tk.ts;
  const all = type.isUnion() ? type.types : [type];
  const admitsUndefined = all.some((t) => t.flags & (TypeFlags.Undefined | TypeFlags.Void));
  return { parts: all.filter((t) => !(t.flags & (TypeFlags.Undefined | TypeFlags.Void | TypeFlags.Null))), admitsUndefined };
}

/**
 * Chooses the conversion of a query, route-parameter or header value from its declared type:
 * `string`, `boolean`, `number`, `Date`, object types (JSON text), arrays of those, enums and
 * unions of string or number literals. `undefined`/`null` in a union only make it optional.
 */
export function conversionOfType(tk: Toolkit, type: ts.Type, typeNode: ts.TypeNode | undefined): DeclaredConversion {
  const { TypeFlags } = tk.ts;
  if (type.flags & (TypeFlags.Any | TypeFlags.Unknown)) return { ok: true, conversion: { kind: 'raw' }, admitsUndefined: true };
  const { parts, admitsUndefined } = withoutAbsent(tk, type);
  const single = parts.length === 1 ? parts[0] : undefined;
  if (single !== undefined && tk.checker.isArrayType(single)) {
    const element = tk.checker.getTypeArguments(single as ts.TypeReference)[0];
    const item = element === undefined ? undefined : itemConversionOf(tk, withoutAbsent(tk, element).parts, typeNode);
    if (item === undefined) {
      return { ok: false, reason: `arrays of ${element === undefined ? 'this type' : tk.checker.typeToString(element)} are not supported` };
    }
    return { ok: true, conversion: { kind: 'array', item }, admitsUndefined };
  }
  const item = itemConversionOf(tk, parts, typeNode);
  if (item === undefined) return { ok: false, reason: `'${tk.checker.typeToString(type)}' cannot be converted from request text` };
  return { ok: true, conversion: item, admitsUndefined };
}
