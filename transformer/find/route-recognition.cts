import type * as ts from 'typescript';
import { decoratorCall, stringLiteralOf, type Toolkit } from '../toolkit.cjs';

/** A Kiln class or method decorator, identified by the declaration its callee resolves to. */
export type KilnDecorator =
  | { readonly kind: 'route'; readonly method: string; readonly path: string | undefined; readonly decorator: ts.Decorator }
  | { readonly kind: 'controller'; readonly basePath: string | undefined }
  | { readonly kind: 'middleware' }
  /** A hand-written `@compiledBinder(...)`: the method needs nothing from the transformer. */
  | { readonly kind: 'hand-written-binder' };

const routeMethods: Readonly<Record<string, string>> = { Get: 'GET', Post: 'POST', Put: 'PUT', Delete: 'DELETE', Patch: 'PATCH' };

// The runtime declares these in src/decorators/<file>.ts (dist/src/decorators/<file>.d.ts once built).
const kilnDeclarationFile = /[\\/](?:src|dist[\\/]src)[\\/](?:decorators[\\/])?(routes|controller|middleware|binder)\.(?:d\.)?ts$/;

/** The symbol a callee names, through imports, re-exports and `const Alias = Get` constants. */
function resolvedSymbol(tk: Toolkit, callee: ts.Expression): ts.Symbol | undefined {
  let node: ts.Expression = callee;
  for (let hops = 0; hops < 8; hops++) {
    let symbol = tk.checker.getSymbolAtLocation(tk.ts.isPropertyAccessExpression(node) ? node.name : node);
    if (symbol !== undefined && symbol.flags & tk.ts.SymbolFlags.Alias) symbol = tk.checker.getAliasedSymbol(symbol);
    const declaration = symbol?.declarations?.[0];
    const initializer = declaration !== undefined && tk.ts.isVariableDeclaration(declaration) ? declaration.initializer : undefined;
    const isConstAlias = initializer !== undefined && (tk.ts.isIdentifier(initializer) || tk.ts.isPropertyAccessExpression(initializer)) &&
      !declaration!.getSourceFile().isDeclarationFile;
    if (!isConstAlias) return symbol;
    node = initializer;
  }
  return undefined;
}

/**
 * Recognises `@Controller`, `@Middleware` and the route decorators through the symbol the
 * callee resolves to, so `import { Get as get }` and namespace imports work. Their arguments are
 * read from literal types: a path held in a `const` counts, a path computed at run time is
 * `undefined` and skips the path checks.
 */
export function recogniseKilnDecorator(tk: Toolkit, decorator: ts.Decorator): KilnDecorator | undefined {
  const call = decoratorCall(tk, decorator);
  if (call === undefined) return undefined;
  const symbol = resolvedSymbol(tk, call.expression);
  const declaration = symbol?.declarations?.[0];
  if (symbol === undefined || declaration === undefined) return undefined;
  const file = kilnDeclarationFile.exec(declaration.getSourceFile().fileName)?.[1];
  if (file === undefined) return undefined;
  const firstArgument = call.arguments[0];
  const literal = firstArgument === undefined ? undefined : stringLiteralOf(tk, tk.checker.getTypeAtLocation(firstArgument));
  const name = symbol.getName();
  if (file === 'routes' && routeMethods[name] !== undefined) {
    return { kind: 'route', method: routeMethods[name], path: literal, decorator };
  }
  if (file === 'controller' && name === 'Controller') return { kind: 'controller', basePath: literal };
  if (file === 'middleware' && name === 'Middleware') return { kind: 'middleware' };
  if (file === 'binder' && name === 'compiledBinder') return { kind: 'hand-written-binder' };
  return undefined;
}
