import { kDependencies, kInjectable } from '../symbols.js';
import { kilnError, kilnErrorFrom } from '../kiln-error.js';
import { isPromiseLike } from '../is-promise-like.js';
import type { Dependency, DependencyPlan } from './dependency.js';

/**
 * A value registered in `createServer({ injections })`: a ready value (`provide`), or a
 * `factory` (sync or async) called once while the application starts. Registering a class under
 * its own class token replaces it everywhere, which is how tests swap a service for a fake.
 */
export type Injection =
  | { readonly token: unknown; readonly provide: unknown }
  | { readonly token: unknown; readonly factory: () => unknown };

interface Lifecycle {
  onInit?(): unknown;
  onClose?(): unknown;
}

/** What an error says, for a message that names it; never throws (a thrown value can be anything). */
function reasonOf(error: unknown): string {
  try {
    return String((error as Error | undefined)?.message ?? error);
  } catch {
    return 'a value that cannot be printed';
  }
}

const timedOut: unique symbol = Symbol('timed out');

/** `promise`'s value, or `timedOut` when it is still pending at `deadline` (its rejection still rejects). */
function beforeDeadline<T>(promise: Promise<T>, deadline: number): Promise<T | typeof timedOut> {
  if (deadline === Number.POSITIVE_INFINITY) return promise;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expiry = new Promise<typeof timedOut>((resolve) => {
    timer = setTimeout(() => resolve(timedOut), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([promise, expiry]).finally(() => clearTimeout(timer));
}

function metadataOf(target: Function): Record<symbol, unknown> | undefined {
  return (target as unknown as Record<symbol, Record<symbol, unknown> | undefined>)[Symbol.metadata] ?? undefined;
}

function describeToken(token: unknown): string {
  if (typeof token === 'function') return token.name || '(anonymous class)';
  if (typeof token === 'string') return `'${token}'`;
  return String(token);
}

/**
 * Creates the application's services, controllers and class middlewares from the dependency
 * lists the transformer wrote, once, when the application is created. Nothing here runs per
 * request: a route reads the instances this resolved.
 */
export class Container {
  readonly #registered = new Map<unknown, { value?: unknown; factory?: () => unknown }>();
  readonly #shared = new Map<Function, object>();
  /** Every instance in creation order (dependencies before their dependents). */
  readonly #created: object[] = [];
  readonly #problems: string[] = [];
  #closed = false;

  /** `defaults` are Kiln's own values (the application's `Logger`); `injections` may replace them. */
  constructor(injections: readonly Injection[], defaults: readonly { token: unknown; value: unknown }[] = []) {
    for (const { token, value } of defaults) this.#registered.set(token, { value });
    injections.forEach((injection, i) => {
      if (injection === null || typeof injection !== 'object' || !('token' in injection)) {
        this.#problems.push(`injections[${i}] must be { token, provide } or { token, factory }`);
      } else if ('factory' in injection) {
        if (typeof injection.factory !== 'function')
          this.#problems.push(`injections[${i}] (${describeToken(injection.token)}): factory must be a function`);
        else this.#registered.set(injection.token, { factory: injection.factory });
      } else if ('provide' in injection) {
        this.#registered.set(injection.token, { value: injection.provide });
      } else {
        this.#problems.push(
          `injections[${i}] (${describeToken((injection as { token?: unknown }).token)}) has neither provide nor factory`,
        );
      }
    });
  }

  /**
   * Calls every factory once, in registration order. Resolves at once when none is async; a
   * rejecting factory rejects with its token named.
   */
  runFactories(): Promise<void> | undefined {
    const pending: Promise<void>[] = [];
    for (const [token, entry] of this.#registered) {
      if (entry.factory === undefined) continue;
      let value: unknown;
      try {
        value = entry.factory();
      } catch (error) {
        this.#problems.push(`the factory of ${describeToken(token)} threw: ${(error as Error)?.message ?? error}`);
        continue;
      }
      if (value instanceof Promise) {
        pending.push(
          value.then(
            (resolved) => void (entry.value = resolved),
            (error) => {
              throw kilnErrorFrom(error, 'KILN021', 'factoryRejected', describeToken(token), reasonOf(error));
            },
          ),
        );
      } else {
        entry.value = value;
      }
      delete entry.factory;
    }
    return pending.length === 0 ? undefined : Promise.all(pending).then(() => undefined);
  }

  /** The one instance of a controller or class middleware (created on first use, with its dependencies). */
  instanceOf(target: Function): object {
    const registered = this.#registered.get(target);
    if (registered !== undefined) return registered.value as object;
    return this.#shared.get(target) ?? this.#create(target, false, [], true);
  }

  /** The values of a handler's `@Inject()` parameters, in the order its binder reads them. */
  handlerValues(controller: Function, handlerName: string): unknown[] | undefined {
    const dependencies = this.#planOf(controller)?.handlers[handlerName];
    return dependencies?.map((dependency) => this.#resolve(dependency, false, [controller]));
  }

  /** Throws one error listing every wiring problem found so far. */
  assertResolved(): void {
    if (this.#problems.length === 0) return;
    const list = [...new Set(this.#problems)];
    throw kilnError('KILN020', 'unwired', list);
  }

  /**
   * Every object whose lifecycle the application owns, in start order: registered values first
   * (they depend on nothing Kiln creates), then created instances, dependencies before dependents.
   */
  #lifecycleOrder(): object[] {
    const registered = [...this.#registered.values()]
      .map((entry) => entry.value)
      .filter((value): value is object => value !== null && typeof value === 'object');
    return [...new Set([...registered, ...this.#created])];
  }

  /** Awaits every `onInit()`, dependencies first; one that fails stops the start with its service named. */
  async init(): Promise<void> {
    for (const instance of this.#lifecycleOrder()) {
      try {
        await (instance as Lifecycle).onInit?.();
      } catch (error) {
        throw kilnErrorFrom(error, 'KILN022', 'onInitFailed', this.#describeInstance(instance), reasonOf(error));
      }
    }
  }

  /** A service by its token when it was registered, else by its class. */
  #describeInstance(instance: object): string {
    for (const [token, entry] of this.#registered) if (entry.value === instance) return describeToken(token);
    return describeToken(instance.constructor);
  }

  /**
   * Awaits every instance's `onClose()`, in reverse creation order; every one runs even if one
   * fails. With a `deadline` (a `Date.now()` time), a hook still running then is abandoned: named
   * to `abandoned`, no longer waited for, and the hooks after it are still called (with no time
   * left, each is waited for only if it finishes at once). So one hung hook (a Redis `quit()`
   * with the server down) cannot keep the application from closing.
   */
  async close(deadline = Number.POSITIVE_INFINITY, abandoned: (hook: string, late: Promise<unknown>) => void = () => {}): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const failures: unknown[] = [];
    for (const instance of this.#lifecycleOrder().reverse()) {
      const hook = (instance as Lifecycle).onClose;
      if (typeof hook !== 'function') continue;
      try {
        const result = hook.call(instance);
        if (!isPromiseLike(result)) continue;
        const settled = Promise.resolve(result);
        if ((await beforeDeadline(settled, deadline)) === timedOut)
          abandoned(`${instance.constructor?.name || 'object'}.onClose()`, settled);
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) throw new AggregateError(failures, `${failures.length} onClose() hook(s) failed`);
  }

  #planOf(target: Function): DependencyPlan | undefined {
    const plan = metadataOf(target)?.[kDependencies] as (() => DependencyPlan) | undefined;
    return plan?.();
  }

  #resolve(dependency: Dependency, deep: boolean, path: readonly Function[]): unknown {
    const { token } = dependency;
    if (dependency.useDefault === true) return undefined;
    const registered = this.#registered.get(token);
    if (registered !== undefined) return registered.value;
    if (typeof token !== 'function') {
      this.#problems.push(`${describeToken(token)} is not registered in createServer({ injections }) (needed by ${dependency.site})`);
      return undefined;
    }
    if (metadataOf(token)?.[kInjectable] !== true) {
      this.#problems.push(
        `${describeToken(token)} is neither @Injectable() nor registered in createServer({ injections }) (needed by ${dependency.site})`,
      );
      return undefined;
    }
    const scope = deep ? 'deep-local' : dependency.scope;
    if (scope === 'shared') return this.#shared.get(token) ?? this.#create(token, false, path, true);
    return this.#create(token, scope === 'deep-local', path, false);
  }

  #create(target: Function, deep: boolean, path: readonly Function[], shared: boolean): object {
    if (path.includes(target)) {
      this.#problems.push(`dependency cycle: ${[...path, target].map((c) => c.name).join(' -> ')}`);
      return {};
    }
    const plan = this.#planOf(target);
    if (plan === undefined && target.length > 0) {
      this.#problems.push(
        `${describeToken(target)}'s constructor takes ${target.length} parameter(s) but has no dependency list: @kiln/core/transformer did not compile its file`,
      );
    }
    const inner = [...path, target];
    const args = (plan?.constructorParameters ?? []).map((dependency) => this.#resolve(dependency, deep, inner));
    const instance = new (target as new (...args: unknown[]) => object)(...args);
    if (shared) this.#shared.set(target, instance);
    this.#created.push(instance);
    return instance;
  }
}
