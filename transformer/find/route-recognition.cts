import type * as ts from 'typescript';
import { decoratorCall, stringLiteralOf, type Toolkit } from '../toolkit.cjs';
import { recogniseKilnImport } from './kiln-import.cjs';
import { runtimeBrands } from './runtime-brands.cjs';

/** A Kiln class or method decorator, identified by the declaration its callee resolves to. */
export type KilnDecorator =
  | {
      readonly kind: 'route';
      readonly method: string;
      readonly path: string | undefined;
      readonly decorator: ts.Decorator;
      /** `@WebSocket`: a GET route that upgrades (analyse/socket-messages.cts). */
      readonly socket: boolean;
    }
  | { readonly kind: 'controller'; readonly basePath: string | undefined }
  | { readonly kind: 'middleware' }
  /** A hand-written `@compiledBinder(...)`: the method needs nothing from the transformer. */
  | { readonly kind: 'hand-written-binder' }
  /** `@Sse()`: the route's values are server-sent events, each projected to the iterable's element type. */
  | { readonly kind: 'eventStream' };

const brand = runtimeBrands.decorator;

/** A string-literal property of a brand type, e.g. `kind: 'route'`. */
function literalProperty(tk: Toolkit, brandType: ts.Type, name: string, at: ts.Node): string | undefined {
  const property = brandType.getProperty(name);
  return property === undefined ? undefined : stringLiteralOf(tk, tk.checker.getTypeOfSymbolAtLocation(property, at));
}

/**
 * Recognises `@Controller`, `@Middleware`, `@compiledBinder`, `@Sse` and the route decorators by the type
 * of the decorator expression: each returns a `KilnDecorator` whose phantom brand carries what it
 * declares as literal types. Aliases, re-exports and namespace imports work, and a decorator of the
 * application's own that happens to be called `Get` or `Controller` is never taken for Kiln's. A
 * path held in a `const` counts; a path computed at run time is `undefined` and skips the path checks.
 */
export function recogniseKilnDecorator(tk: Toolkit, decorator: ts.Decorator): KilnDecorator | undefined {
  const imported = recogniseKilnImport(tk, decorator);
  if (imported !== undefined) {
    switch (imported.kind) {
      case 'route':
        return { kind: 'route', method: imported.method, path: imported.path, decorator, socket: imported.socket === true };
      case 'controller':
      case 'middleware':
      case 'hand-written-binder':
      case 'eventStream':
        return imported;
      default:
        return undefined;
    }
  }
  const call = decoratorCall(tk, decorator);
  if (call === undefined) return undefined;
  const brandSymbol = tk.checker.getTypeAtLocation(call).getProperty(brand);
  if (brandSymbol === undefined) return undefined;
  const brandType = tk.checker.getTypeOfSymbolAtLocation(brandSymbol, call);
  switch (literalProperty(tk, brandType, 'kind', call)) {
    case 'route': {
      const method = literalProperty(tk, brandType, 'method', call);
      const path = literalProperty(tk, brandType, 'path', call);
      const socket = brandType.getProperty('socket') !== undefined;
      return method === undefined ? undefined : { kind: 'route', method, path, decorator, socket };
    }
    case 'controller':
      return { kind: 'controller', basePath: literalProperty(tk, brandType, 'basePath', call) };
    case 'middleware':
      return { kind: 'middleware' };
    case 'binder':
      return { kind: 'hand-written-binder' };
    case 'eventStream':
      return { kind: 'eventStream' };
    default:
      return undefined;
  }
}
