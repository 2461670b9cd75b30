import type * as ts from 'typescript';
import { decoratorCall, stringLiteralOf, type Toolkit } from '../toolkit.cjs';
import { recogniseKilnImport } from './kiln-import.cjs';
import { runtimeBrands } from './runtime-brands.cjs';

/** `@Inject(token?)` or `@Scope(scope)`, read from the decorator's type, or the type-level `Inject<T, Token?>`. */
export type RecognisedInjection =
  | {
      readonly kind: 'inject';
      /** The decorator, to be blanked; `undefined` for the type-level form. */
      readonly decorator: ts.Decorator | undefined;
      /** Where problems are reported: the decorator, or the parameter's type annotation. */
      readonly node: ts.Node;
      /** The token: the decorator's argument, or the name in `typeof GREETING` (a literal type for a string token); `undefined` injects the declared class. */
      readonly token: ts.Node | undefined;
      /** The type the token provides (`T` of `InjectionToken<T>` or of a class token); `undefined` when unknown (string, symbol). */
      readonly provides: ts.Type | undefined;
      /** The type-level form's injected type (`Counter` of `Inject<Counter>`), read instead of the whole annotation. */
      readonly typeNode?: ts.TypeNode;
    }
  | { readonly kind: 'scope'; readonly decorator: ts.Decorator; readonly node: ts.Node; readonly scope: string | undefined };

const injectionBrand = runtimeBrands.injection;
const injectableBrand = runtimeBrands.injectable;

/** Recognises Kiln's `@Inject` and `@Scope` by their branded type, so aliases and re-exports work. */
export function recogniseInjection(tk: Toolkit, decorator: ts.Decorator): RecognisedInjection | undefined {
  // Another of '@kiln/core''s decorators, known from the syntax (`@Inject` and `@Scope` are read from their types).
  if (recogniseKilnImport(tk, decorator) !== undefined) return undefined;
  const type = tk.checker.getTypeAtLocation(decorator.expression);
  const brand = type.getProperty(injectionBrand);
  if (brand === undefined) return undefined;
  const brandType = tk.checker.getTypeOfSymbolAtLocation(brand, decorator.expression);
  const kindSymbol = brandType.getProperty('kind');
  const valueSymbol = brandType.getProperty('value');
  if (kindSymbol === undefined || valueSymbol === undefined) return undefined;
  const kind = stringLiteralOf(tk, tk.checker.getTypeOfSymbolAtLocation(kindSymbol, decorator.expression));
  const value = tk.checker.getTypeOfSymbolAtLocation(valueSymbol, decorator.expression);
  const call = decoratorCall(tk, decorator);
  if (kind === 'scope') return { kind, decorator, node: decorator, scope: stringLiteralOf(tk, value) };
  if (kind !== 'inject') return undefined;
  const token = call?.arguments[0];
  const unknownValue = !!(value.flags & (tk.ts.TypeFlags.Unknown | tk.ts.TypeFlags.Any | tk.ts.TypeFlags.Never));
  return { kind, decorator, node: decorator, token, provides: token === undefined || unknownValue ? undefined : value };
}

/**
 * Recognises the type-level `Inject<T>` (inject the class `T`) and `Inject<T, typeof TOKEN>` (or a
 * string-literal token) on a parameter's annotation. `Inject` the type shares its symbol with the
 * decorator, so it is recognised by the decorator's brand, as `@Inject` is.
 */
export function recogniseTypeInjection(tk: Toolkit, parameter: ts.ParameterDeclaration): RecognisedInjection | undefined {
  const { ts: tsi, checker } = tk;
  let annotation = parameter.type;
  while (annotation !== undefined && tsi.isParenthesizedTypeNode(annotation)) annotation = annotation.type;
  if (annotation === undefined || !tsi.isTypeReferenceNode(annotation)) return undefined;
  let symbol = checker.getSymbolAtLocation(annotation.typeName);
  if (symbol !== undefined && symbol.flags & tsi.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  if (symbol === undefined || !(symbol.flags & tsi.SymbolFlags.TypeAlias) || !(symbol.flags & tsi.SymbolFlags.Function)) return undefined;
  const injects = checker
    .getTypeOfSymbolAtLocation(symbol, annotation)
    .getCallSignatures()
    .some((signature) => {
      const brand = signature.getReturnType().getProperty(injectionBrand);
      const kind = brand && checker.getTypeOfSymbolAtLocation(brand, annotation).getProperty('kind');
      return kind !== undefined && stringLiteralOf(tk, checker.getTypeOfSymbolAtLocation(kind, annotation)) === 'inject';
    });
  if (!injects) return undefined;
  const [typeNode, tokenType] = annotation.typeArguments ?? [];
  const token = tokenType === undefined ? undefined : tsi.isTypeQueryNode(tokenType) ? tokenType.exprName : tokenType;
  return { kind: 'inject', decorator: undefined, node: parameter.type!, token, provides: providedBy(tk, token), typeNode };
}

/** What a type-level token provides: `T` of an `InjectionToken<T>`, a class token's instances; `undefined` for a string or symbol. */
function providedBy(tk: Toolkit, token: ts.Node | undefined): ts.Type | undefined {
  if (token === undefined || !tk.ts.isEntityName(token)) return undefined;
  const type = tk.checker.getTypeAtLocation(token);
  const tokenType = type.getProperty(runtimeBrands.tokenType);
  if (tokenType !== undefined) return tk.checker.getNonNullableType(tk.checker.getTypeOfSymbolAtLocation(tokenType, token));
  const constructs = type.getConstructSignatures();
  return constructs.length === 0 ? undefined : constructs[0]!.getReturnType();
}

/** Whether a class decorator is Kiln's `@Injectable()`. */
export function isInjectableDecorator(tk: Toolkit, decorator: ts.Decorator): boolean {
  const imported = recogniseKilnImport(tk, decorator);
  if (imported !== undefined) return imported.kind === 'injectable';
  return tk.checker.getTypeAtLocation(decorator.expression).getProperty(injectableBrand) !== undefined;
}
