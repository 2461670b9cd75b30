import type * as ts from 'typescript';
import { decoratorCall, stringLiteralOf, type Toolkit } from '../toolkit.cjs';
import { recogniseKilnImport } from './kiln-import.cjs';

/** `@Inject(token?)` or `@Scope(scope)`, read from the decorator's type. */
export type RecognisedInjection =
  | {
      readonly kind: 'inject';
      readonly decorator: ts.Decorator;
      /** The token argument; `undefined` for `@Inject()` (inject the declared class). */
      readonly token: ts.Expression | undefined;
      /** The type the token provides (`T` of `InjectionToken<T>` or of a class token); `undefined` when unknown (string, symbol). */
      readonly provides: ts.Type | undefined;
    }
  | { readonly kind: 'scope'; readonly decorator: ts.Decorator; readonly scope: string | undefined };

/** Must match the phantom properties in src/injection/decorators.ts. */
const injectionBrand = '__kilnInjection';
const injectableBrand = '__kilnInjectable';

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
  if (kind === 'scope') return { kind, decorator, scope: stringLiteralOf(tk, value) };
  if (kind !== 'inject') return undefined;
  const token = call?.arguments[0];
  const unknownValue = !!(value.flags & (tk.ts.TypeFlags.Unknown | tk.ts.TypeFlags.Any | tk.ts.TypeFlags.Never));
  return { kind, decorator, token, provides: token === undefined || unknownValue ? undefined : value };
}

/** Whether a class decorator is Kiln's `@Injectable()`. */
export function isInjectableDecorator(tk: Toolkit, decorator: ts.Decorator): boolean {
  const imported = recogniseKilnImport(tk, decorator);
  if (imported !== undefined) return imported.kind === 'injectable';
  return tk.checker.getTypeAtLocation(decorator.expression).getProperty(injectableBrand) !== undefined;
}
