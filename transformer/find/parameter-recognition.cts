import type * as ts from 'typescript';
import type { ParameterSource } from '../analyse/model.cjs';
import { decoratorCall, stringLiteralOf, type Toolkit } from '../toolkit.cjs';
import { recogniseKilnImport } from './kiln-import.cjs';

/** A parameter decorator recognised as Kiln's, read from its type. */
export interface RecognisedBinding {
  readonly decorator: ts.Decorator;
  readonly source: ParameterSource;
  /** The name as a literal; `undefined` when the type says only `string` (not known at build time). */
  readonly name: string | undefined;
  /** The first argument (the name), for diagnostics. */
  readonly nameArgument: ts.Expression | undefined;
  /** The spec's second argument (`[Number]`, allowed values, an enum object). */
  readonly items: ts.Expression | undefined;
  /** The type the binding injects as it is (`KilnRequest`, `KilnRequest['ip']`); `undefined` when converted from text. */
  readonly value: ts.Type | undefined;
}

/** Must match the phantom property of `ParameterBinding` in src/decorators/parameters.ts. */
const brand = '__kilnParameter';
const sources: ReadonlySet<string> = new Set(['body', 'param', 'query', 'header', 'request']);

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
    return { decorator, source, name, nameArgument, items, value: undefined };
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
    source: source as ParameterSource,
    name,
    nameArgument: takesName ? call?.arguments[0] : undefined,
    items: takesName && source !== 'body' ? call?.arguments[1] : undefined,
    value: value === undefined || value.flags & (tk.ts.TypeFlags.Any | tk.ts.TypeFlags.Unknown) ? undefined : value,
  };
}
