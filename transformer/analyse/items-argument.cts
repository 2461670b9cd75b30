import type * as ts from 'typescript';
import type { Conversion, ItemConversion } from './model.cjs';
import type { Toolkit } from '../toolkit.cjs';

/** What a parameter decorator's `items` argument (`@Query('ids', [Number])`) declares. */
export type ItemsDeclaration =
  | { readonly kind: 'item-type'; readonly item: 'text' | 'number' | 'boolean' | 'date'; readonly written: string }
  | { readonly kind: 'values'; readonly values: readonly (string | number)[] }
  | { readonly kind: 'unknown' };

const constructors: Readonly<Record<string, 'text' | 'number' | 'boolean' | 'date'>> = {
  String: 'text',
  Number: 'number',
  Boolean: 'boolean',
  Date: 'date',
};

function literalValue(tk: Toolkit, type: ts.Type): string | number | undefined {
  return type.flags & (tk.ts.TypeFlags.StringLiteral | tk.ts.TypeFlags.NumberLiteral)
    ? ((type as ts.LiteralType).value as string | number)
    : undefined;
}

function globalConstructor(tk: Toolkit, node: ts.Expression): 'text' | 'number' | 'boolean' | 'date' | undefined {
  if (!tk.ts.isIdentifier(node)) return undefined;
  const symbol = tk.checker.getSymbolAtLocation(node);
  const kind = symbol === undefined ? undefined : constructors[symbol.getName()];
  if (kind === undefined) return undefined;
  const isGlobal = (symbol!.declarations ?? []).some((d) => tk.program.isSourceFileDefaultLibrary(d.getSourceFile()));
  return isGlobal ? kind : undefined;
}

function valuesOf(tk: Toolkit, types: readonly ts.Type[]): (string | number)[] | undefined {
  const values = types.map((t) => literalValue(tk, t));
  return values.every((v) => v !== undefined) && values.length > 0 ? (values as (string | number)[]) : undefined;
}

/**
 * Reads the `items` argument at build time: `[Number]` (an item type), an array of allowed values,
 * an enum object, or a constant holding either (`as const` arrays and objects).
 */
export function readItems(tk: Toolkit, items: ts.Expression): ItemsDeclaration {
  if (tk.ts.isArrayLiteralExpression(items)) {
    if (items.elements.length === 1) {
      const item = globalConstructor(tk, items.elements[0]!);
      if (item !== undefined) return { kind: 'item-type', item, written: items.getText() };
    }
    const values = valuesOf(
      tk,
      items.elements.map((e) => tk.checker.getTypeAtLocation(e)),
    );
    return values === undefined ? { kind: 'unknown' } : { kind: 'values', values };
  }
  const type = tk.checker.getTypeAtLocation(items);
  if (tk.checker.isTupleType(type)) {
    const values = valuesOf(tk, tk.checker.getTypeArguments(type as ts.TypeReference));
    return values === undefined ? { kind: 'unknown' } : { kind: 'values', values };
  }
  const properties = type.getProperties();
  const values = valuesOf(
    tk,
    properties.map((p) => tk.checker.getTypeOfSymbolAtLocation(p, items)),
  );
  return values === undefined ? { kind: 'unknown' } : { kind: 'values', values };
}

function describeItem(item: ItemConversion): string {
  return item.kind === 'enum' ? `one of [${item.values.join(', ')}]` : item.kind === 'text' ? 'string' : item.kind;
}

function sameValues(a: readonly (string | number)[], b: readonly (string | number)[]): boolean {
  return a.length === b.length && a.every((v) => b.includes(v));
}

/** An item conversion narrowed by allowed values, or `undefined` when they disagree. */
function narrowItem(item: ItemConversion, values: readonly (string | number)[]): ItemConversion | undefined {
  if (item.kind === 'enum') return sameValues(item.values, values) ? item : undefined;
  if (item.kind === 'text' && values.every((v) => typeof v === 'string')) return { kind: 'enum', values };
  if (item.kind === 'number' && values.every((v) => typeof v === 'number')) return { kind: 'enum', values };
  return undefined;
}

function itemTypeFits(declared: ItemConversion, item: 'text' | 'number' | 'boolean' | 'date'): boolean {
  if (declared.kind === item) return true;
  if (declared.kind !== 'enum') return false;
  return item === 'text'
    ? declared.values.every((v) => typeof v === 'string')
    : item === 'number' && declared.values.every((v) => typeof v === 'number');
}

/**
 * Combines the declared type's conversion with what `items` says. Agreement keeps the declared
 * conversion (or narrows `string` to the allowed values); an `any`/`unknown` parameter takes the
 * conversion from `items`; a disagreement is an error message for KILN104.
 */
export function reconcileItems(
  declared: Conversion,
  declaredText: string,
  items: ItemsDeclaration,
): { conversion: Conversion } | { error: string } {
  if (items.kind === 'unknown') {
    return {
      error: 'items must be [Number], [Boolean], [Date], [String], an array of literal values or an enum object known at build time',
    };
  }
  if (items.kind === 'item-type') {
    if (declared.kind === 'raw') return { conversion: { kind: 'array', item: { kind: items.item } } };
    if (declared.kind === 'array' && itemTypeFits(declared.item, items.item)) return { conversion: declared };
    const said = items.item === 'text' ? 'string' : items.item === 'date' ? 'Date' : items.item;
    return { error: `items ${items.written} declares ${said}[] but the parameter is declared as '${declaredText}'` };
  }
  const allowed = `[${items.values.join(', ')}]`;
  if (declared.kind === 'raw') return { conversion: { kind: 'enum', values: items.values } };
  if (declared.kind === 'array') {
    const item = narrowItem(declared.item, items.values);
    if (item !== undefined) return { conversion: { kind: 'array', item } };
    return { error: `items allow ${allowed} but the parameter's items are declared as ${describeItem(declared.item)}` };
  }
  const item = narrowItem(declared, items.values);
  if (item !== undefined) return { conversion: item };
  return { error: `items allow ${allowed} but the parameter is declared as '${declaredText}'` };
}
