import type * as ts from 'typescript';
import { decoratorCall, type Toolkit } from '../toolkit.cjs';

/** The module whose named exports are recognised without the type checker. */
const kilnModule = '@kiln/core';

/** What a decorator written with one of `@kiln/core`'s exports is, read from the source alone. */
export type KilnImportDecorator =
  | { readonly kind: 'route'; readonly method: string; readonly path: string; readonly socket?: true }
  | { readonly kind: 'controller'; readonly basePath: string }
  | { readonly kind: 'middleware' }
  | { readonly kind: 'hand-written-binder' }
  | { readonly kind: 'eventStream' }
  | { readonly kind: 'injectable' }
  | {
      readonly kind: 'binding';
      readonly source: 'param' | 'query' | 'header' | 'cookie' | 'body';
      readonly name: string;
      readonly nameArgument: ts.Expression | undefined;
      readonly items: ts.Expression | undefined;
    };

const routeMethods: Readonly<Record<string, string>> = { Get: 'GET', Post: 'POST', Put: 'PUT', Delete: 'DELETE', Patch: 'PATCH' };
const bindingSources: Readonly<Record<string, 'param' | 'query' | 'header' | 'cookie'>> = {
  Param: 'param',
  Query: 'query',
  Header: 'header',
  Cookie: 'cookie',
};

/**
 * Recognises a decorator written as a call of a named import of `@kiln/core` (`@Get('/:id')`,
 * `@kiln.Get('/:id')` through a namespace import) from the syntax alone, with string-literal
 * arguments where the brand would carry a literal. Recognition by type (find/*-recognition.cts)
 * costs a call resolution in a checker the build then throws away (the rewritten program is
 * checked by a new one): on an application of 300 routes that was most of Kiln's analysis time.
 * `undefined` means "ask the checker": aliases, re-exports, custom decorators, a path held in a
 * const, an uncalled decorator, `@Req()` and `@Inject` (whose brands carry types, not literals).
 * Only name lookup is used (no type is computed), so a local declaration that shadows the
 * import is never taken for Kiln's.
 */
export function recogniseKilnImport(tk: Toolkit, decorator: ts.Decorator): KilnImportDecorator | undefined {
  const call = decoratorCall(tk, decorator);
  if (call === undefined || call.typeArguments !== undefined) return undefined;
  const exported = kilnExportName(tk, call.expression);
  if (exported === undefined) return undefined;
  const args = call.arguments;
  const literal = (index: number): string | undefined => {
    const argument = args[index];
    return argument !== undefined && tk.ts.isStringLiteral(argument) ? argument.text : undefined;
  };
  const method = routeMethods[exported];
  if (method !== undefined) {
    const path = literal(0);
    return path === undefined ? undefined : { kind: 'route', method, path };
  }
  if (exported === 'WebSocket') {
    const path = literal(0);
    return path === undefined ? undefined : { kind: 'route', method: 'GET', path, socket: true };
  }
  const source = bindingSources[exported];
  if (source !== undefined) {
    const name = literal(0);
    if (name === undefined || args.length > 2) return undefined;
    return { kind: 'binding', source, name, nameArgument: args[0], items: args[1] };
  }
  switch (exported) {
    case 'Controller': {
      const basePath = literal(0);
      return basePath === undefined ? undefined : { kind: 'controller', basePath };
    }
    case 'Middleware':
      return args.length === 0 ? { kind: 'middleware' } : undefined;
    case 'compiledBinder':
      return { kind: 'hand-written-binder' };
    case 'Sse':
      return { kind: 'eventStream' };
    case 'Injectable':
      return args.length === 0 ? { kind: 'injectable' } : undefined;
    case 'Body': {
      if (args.length === 0) return { kind: 'binding', source: 'body', name: '', nameArgument: undefined, items: undefined };
      const name = literal(0);
      return name === undefined || args.length > 1
        ? undefined
        : { kind: 'binding', source: 'body', name, nameArgument: args[0], items: undefined };
    }
    default:
      // `@Req()`, `@Inject`, `@Scope` and the other exports: their brands carry types the checker reads.
      return undefined;
  }
}

/**
 * The name `@kiln/core` exports under which `callee` is imported: `Get` for `Get` (also when
 * imported as `{ Get as G }`) or `kiln.Get` (with `import * as kiln`); `undefined` otherwise.
 */
export function kilnExportName(tk: Toolkit, callee: ts.Expression): string | undefined {
  const tsi = tk.ts;
  if (tsi.isIdentifier(callee)) {
    const specifier = importDeclarationOf(tk, callee);
    if (specifier === undefined || !tsi.isImportSpecifier(specifier)) return undefined;
    return (specifier.propertyName ?? specifier.name).text;
  }
  if (tsi.isPropertyAccessExpression(callee) && tsi.isIdentifier(callee.expression) && tsi.isIdentifier(callee.name)) {
    const namespace = importDeclarationOf(tk, callee.expression);
    return namespace !== undefined && tsi.isNamespaceImport(namespace) ? callee.name.text : undefined;
  }
  return undefined;
}

/** The import specifier or namespace import of `@kiln/core` that `identifier` names (by name lookup only). */
function importDeclarationOf(tk: Toolkit, identifier: ts.Identifier): ts.ImportSpecifier | ts.NamespaceImport | undefined {
  const tsi = tk.ts;
  const symbol = tk.checker.getSymbolAtLocation(identifier);
  const declaration = symbol?.declarations?.length === 1 ? symbol.declarations[0] : undefined;
  if (declaration === undefined || !(tsi.isImportSpecifier(declaration) || tsi.isNamespaceImport(declaration))) return undefined;
  const importDeclaration = tsi.isImportSpecifier(declaration) ? declaration.parent.parent.parent : declaration.parent.parent;
  if (importDeclaration.importClause?.isTypeOnly || (tsi.isImportSpecifier(declaration) && declaration.isTypeOnly)) return undefined;
  const specifier = importDeclaration.moduleSpecifier;
  return tsi.isStringLiteral(specifier) && specifier.text === kilnModule ? declaration : undefined;
}
