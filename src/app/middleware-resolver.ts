import type { MethodDeclarations } from '../decorators/method-declaration.js';
import { noParameters } from '../binding/no-parameters.js';
import { kilnError } from '../kiln-error.js';
import type { MiddlewareFunction, MiddlewareLike } from '../middleware.js';
import { isPromiseLike } from '../is-promise-like.js';
import type { KilnRequest } from '../request/kiln-request.js';
import { kMethods, kMiddleware } from '../symbols.js';
import { describe, metadataOf } from './declarations.js';
import type { Container } from '../injection/container.js';
import { describeMiddleware, middlewareDescription } from '../openapi/middleware-description.js';

const noValues: readonly unknown[] = Object.freeze([]);

/** A class, as opposed to a plain function: only a class's source text starts with `class`. */
function isClass(value: Function): boolean {
  return Function.prototype.toString.call(value).startsWith('class');
}

/**
 * Turns middleware declarations into the `(req, next)` shape the chain calls. A class middleware
 * is instantiated once per server and its `use` is called with the arguments its compiled binder
 * produces; everything that can be wrong with one is found here, at start-up.
 */
export class MiddlewareResolver {
  readonly #instances = new Map<Function, MiddlewareFunction>();
  readonly #strict: boolean;
  readonly #container: Container;

  constructor(strict: boolean, container: Container) {
    this.#strict = strict;
    this.#container = container;
  }

  resolve(middleware: MiddlewareLike, where: string): MiddlewareFunction {
    if (typeof middleware !== 'function') {
      throw kilnError('KILN005', 'notAMiddleware', where, typeof middleware);
    }
    const metadata = metadataOf(middleware);
    const use: unknown = (middleware as { prototype?: { use?: unknown } }).prototype?.use;
    if (typeof use !== 'function') {
      if (metadata?.[kMiddleware] === true || isClass(middleware)) {
        throw kilnError('KILN010', 'noUseMethod', where, describe(middleware));
      }
      return middleware as MiddlewareFunction;
    }
    const cached = this.#instances.get(middleware);
    if (cached !== undefined) return cached;

    const name = `${describe(middleware)}.use`;
    if (metadata?.[kMiddleware] !== true) {
      throw kilnError('KILN004', 'middlewareNotMarked', where, describe(middleware));
    }
    const binder = (metadata[kMethods] as MethodDeclarations | undefined)?.get('use')?.binder;
    // Every compiled `use` carries a binder (noParameters when it binds nothing): no guessing from use.length.
    if (binder === undefined) throw kilnError('KILN003', 'middlewareNotCompiled', name);
    const instance = this.#container.instanceOf(middleware);
    const strict = this.#strict;
    const injected = this.#container.handlerValues(middleware, 'use') ?? noValues;
    const resolved: MiddlewareFunction =
      binder === noParameters
        ? () => use.call(instance)
        : (req: KilnRequest) => {
            const args = binder(req, strict, injected);
            return isPromiseLike(args) ? args.then((bound) => use.apply(instance, bound as unknown[])) : use.apply(instance, args);
          };
    // What the class says of itself in the OpenAPI document goes with the function that runs it.
    const description = middlewareDescription(middleware);
    if (description !== undefined) describeMiddleware(resolved, description);
    this.#instances.set(middleware, resolved);
    return resolved;
  }
}
