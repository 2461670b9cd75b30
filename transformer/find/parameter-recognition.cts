import type * as ts from 'typescript';
import type { ParameterSource } from '../analyse/model.cjs';
import { decoratorCall, stringLiteralOf, type Toolkit } from '../toolkit.cjs';
import { recogniseKilnImport } from './kiln-import.cjs';
import { runtimeBrands } from './runtime-brands.cjs';

/** A Kiln binding of one parameter: a parameter decorator, or a type-level source (`id: Param<number>`), read from its type. */
export interface RecognisedBinding {
  /** The decorator, to be blanked; `undefined` for a type-level source, which needs no blanking. */
  readonly decorator: ts.Decorator | undefined;
  /** Where a problem with the binding is reported: the decorator, or the parameter's type annotation. */
  readonly node: ts.Node;
  /** How messages name the binding's kind: `@Param`, or `Param` for the type-level form. */
  readonly label: string;
  readonly source: ParameterSource;
  /** The name as a literal; `undefined` when the type says only `string` (not known at build time). */
  readonly name: string | undefined;
  /** The decorator's first argument or the type's name argument (the name), for diagnostics. */
  readonly nameArgument: ts.Node | undefined;
  /** The decorator's second argument, `items` (`[Number]`, allowed values, an enum object). */
  readonly items: ts.Expression | undefined;
  /** The type the binding injects as it is (`KilnRequest`, `KilnRequest['ip']`); `undefined` when converted from text. */
  readonly value: ts.Type | undefined;
  /** The type-level form's value type (`number` in `Param<number>`): what conversion and messages read instead of the whole annotation. */
  readonly typeNode?: ts.TypeNode;
}

const brand = runtimeBrands.parameter;
const sources: ReadonlySet<string> = new Set(['body', 'param', 'query', 'header', 'cookie', 'request']);

/** How messages name a decorator: `@Param` for `@Param('id')`. */
function labelOf(decorator: ts.Decorator): string {
  return `@${decorator.expression.getText().split('(')[0]}`;
}

/**
 * Recognises a Kiln parameter decorator by the type of its expression: every Kiln parameter
 * decorator (and every one made by `routeRequestParamDecorator`) returns a `ParameterBinding`
 * whose phantom brand carries the source and the name as literal types. Recognising by type
 * rather than by name makes aliases, re-exports and custom decorators from other files work.
 */
export function recogniseBinding(
  tk: Toolkit,
  decorator: ts.Decorator,
): RecognisedBinding | 'uncalled' | 'uncalled-with-arguments' | undefined {
  // `@Param('id')` imported from '@kiln/core' is read from the syntax; the checker answers the rest.
  const imported = recogniseKilnImport(tk, decorator);
  if (imported !== undefined) {
    if (imported.kind !== 'binding') return undefined;
    const { source, name, nameArgument, items } = imported;
    return { decorator, node: decorator, label: labelOf(decorator), source, name, nameArgument, items, value: undefined };
  }
  const type = tk.checker.getTypeAtLocation(decorator.expression);
  const brandSymbol = type.getProperty(brand);
  if (brandSymbol === undefined) {
    // `@Ip` instead of `@Ip()`: a function that would return a binding.
    const factories = type.getCallSignatures().filter((signature) => signature.getReturnType().getProperty(brand) !== undefined);
    if (factories.length === 0) return undefined;
    return factories.some((signature) => signature.getParameters().length === 0 || signature.getDeclaration()?.parameters[0]?.questionToken)
      ? 'uncalled'
      : 'uncalled-with-arguments';
  }
  const brandType = tk.checker.getTypeOfSymbolAtLocation(brandSymbol, decorator.expression);
  const sourceSymbol = brandType.getProperty('source');
  const nameSymbol = brandType.getProperty('name');
  if (sourceSymbol === undefined || nameSymbol === undefined) return undefined;
  const source = stringLiteralOf(tk, tk.checker.getTypeOfSymbolAtLocation(sourceSymbol, decorator.expression));
  if (source === undefined || !sources.has(source)) return undefined;
  const name = stringLiteralOf(tk, tk.checker.getTypeOfSymbolAtLocation(nameSymbol, decorator.expression));
  const valueSymbol = brandType.getProperty('value');
  const value = valueSymbol === undefined ? undefined : tk.checker.getTypeOfSymbolAtLocation(valueSymbol, decorator.expression);
  const call = decoratorCall(tk, decorator);
  // `@Ip()` made by routeRequestParamDecorator has no arguments: its name lives only in the type.
  const takesName = source !== 'request';
  return {
    decorator,
    node: decorator,
    label: labelOf(decorator),
    source: source as ParameterSource,
    name,
    nameArgument: takesName ? call?.arguments[0] : undefined,
    items: takesName && source !== 'body' ? call?.arguments[1] : undefined,
    value: value === undefined || value.flags & (tk.ts.TypeFlags.Any | tk.ts.TypeFlags.Unknown) ? undefined : value,
  };
}

/**
 * The source a type alias stands for, when it is one of Kiln's type-level forms. Each of them shares
 * its symbol with the parameter decorator of the same name (`type Param<T, Name>` beside `function
 * Param`), so the source is read from the decorator's branded return type, as for the decorator
 * itself: renamed imports and re-exports work, and an unrelated alias named `Param` is not taken.
 */
function typeFormSource(tk: Toolkit, alias: ts.Symbol, at: ts.Node): ParameterSource | undefined {
  if (!(alias.flags & tk.ts.SymbolFlags.TypeAlias) || !(alias.flags & tk.ts.SymbolFlags.Function)) return undefined;
  for (const signature of tk.checker.getTypeOfSymbolAtLocation(alias, at).getCallSignatures()) {
    const brandSymbol = signature.getReturnType().getProperty(brand);
    const sourceSymbol = brandSymbol && tk.checker.getTypeOfSymbolAtLocation(brandSymbol, at).getProperty('source');
    const source = sourceSymbol && stringLiteralOf(tk, tk.checker.getTypeOfSymbolAtLocation(sourceSymbol, at));
    if (source !== undefined && sources.has(source)) return source as ParameterSource;
  }
  return undefined;
}

function withoutParentheses(tk: Toolkit, node: ts.TypeNode | undefined): ts.TypeNode | undefined {
  while (node !== undefined && tk.ts.isParenthesizedTypeNode(node)) node = node.type;
  return node;
}

/**
 * Recognises the type-level form of a binding from a parameter's annotation: `id: Param<number>`,
 * `tags: Query<string[]>`, `tenant?: Header<string, 'x-tenant'>`, `item: Body<NewItem>`,
 * `field: Body<string, 'field'>`, `req: Req`, `ip: Req<'ip'>`, and a non-generic alias of one of
 * them (`type Tenant = Header<string, 'x-tenant'>`). Query, route-parameter and header names come
 * from the parameter unless given as the second type argument; `Body<T>` is the whole body.
 */
export function recogniseTypeBinding(tk: Toolkit, parameter: ts.ParameterDeclaration): RecognisedBinding | undefined {
  const annotation = parameter.type;
  let reference = withoutParentheses(tk, annotation);
  // A few hops through the user's own aliases (`type Id = Param<number>`); a cycle is the compiler's error.
  for (let hops = 0; hops < 8 && reference !== undefined && tk.ts.isTypeReferenceNode(reference); hops++) {
    let symbol = tk.checker.getSymbolAtLocation(reference.typeName);
    if (symbol !== undefined && symbol.flags & tk.ts.SymbolFlags.Alias) symbol = tk.checker.getAliasedSymbol(symbol);
    if (symbol === undefined || !(symbol.flags & tk.ts.SymbolFlags.TypeAlias)) return undefined;
    const source = typeFormSource(tk, symbol, reference);
    if (source !== undefined) return typeBinding(tk, parameter, annotation!, reference, source);
    const declaration = symbol.declarations?.find(tk.ts.isTypeAliasDeclaration);
    if (declaration === undefined || declaration.typeParameters !== undefined) return undefined;
    reference = withoutParentheses(tk, declaration.type);
  }
  return undefined;
}

function typeBinding(
  tk: Toolkit,
  parameter: ts.ParameterDeclaration,
  annotation: ts.TypeNode,
  reference: ts.TypeReferenceNode,
  source: ParameterSource,
): RecognisedBinding {
  const [first, second] = reference.typeArguments ?? [];
  // `Req<'ip'>` names the request property first; the others name their key second.
  const nameArgument = source === 'request' ? first : second;
  const own = reference.getSourceFile() === parameter.getSourceFile();
  let name: string | undefined;
  if (nameArgument !== undefined) name = stringLiteralOf(tk, tk.checker.getTypeFromTypeNode(nameArgument));
  else if (source === 'body' || source === 'request') name = '';
  else if (tk.ts.isIdentifier(parameter.name)) name = parameter.name.text;
  const label = tk.ts.isIdentifier(reference.typeName) ? reference.typeName.text : reference.typeName.right.text;
  return {
    decorator: undefined,
    node: annotation,
    label,
    source,
    name,
    nameArgument: own ? nameArgument : undefined,
    items: undefined,
    value: undefined,
    typeNode: source === 'request' ? undefined : first,
  };
}
