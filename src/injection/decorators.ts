import { kDependencies, kInjectable } from '../symbols.js';
import { kilnError } from '../kiln-error.js';
import type { DependencyPlan } from './dependency.js';
import type { InjectionToken } from './injection-token.js';
import type { Scope } from './scopes.js';

/**
 * The type `@Inject` and `@Scope` return. `@kiln/core/transformer` recognises them by this
 * phantom brand (not by name) and turns them into the dependency list it writes beside the class;
 * `Value` carries the type a token provides, so the build can check the parameter's declared type.
 * The brand's name is read by transformer/find/runtime-brands.cts (a contract test holds them together).
 */
export interface InjectionBinding<Kind extends 'inject' | 'scope', Value> {
  (target: unknown, context: unknown): void;
  readonly __kilnInjection: { readonly kind: Kind; readonly value: Value };
}

/** The type `@Injectable()` returns; recognised by the transformer through its brand. */
export interface InjectableDecorator {
  (target: Function, context: ClassDecoratorContext): void;
  readonly __kilnInjectable: true;
}

function injectionBinding<K extends 'inject' | 'scope', V>(): InjectionBinding<K, V> {
  return (() => {
    throw kilnError('KILN009', 'injectionDecorator');
  }) as unknown as InjectionBinding<K, V>;
}

/**
 * Marks a service: a class that controllers, class middlewares and other services receive
 * through their constructors, resolved from the declared parameter types at build time.
 *
 * @example
 * ```ts
 * @Injectable()
 * export class UserService { constructor(private readonly db: Database) {} }
 * ```
 */
export function Injectable(): InjectableDecorator {
  const decorator = (_class: Function, context: ClassDecoratorContext): void => {
    context.metadata[kInjectable] = true;
  };
  return decorator as InjectableDecorator;
}

/**
 * Injects a value into a constructor or handler parameter. Without a token, the parameter's
 * declared class is injected; with one, the value registered under it in
 * `createServer({ injections })` (a string, a symbol, an `InjectionToken<T>` or a class).
 *
 * @example
 * ```ts
 * constructor(@Inject(CONFIG) private readonly config: AppConfig) {}
 * @Get('/') list(@Inject() users: UserService) { return users.all(); }
 * ```
 */
export function Inject(): InjectionBinding<'inject', never>;
export function Inject<T>(token: InjectionToken<T>): InjectionBinding<'inject', T>;
export function Inject<T>(token: abstract new (...args: never[]) => T): InjectionBinding<'inject', T>;
export function Inject(token: string | symbol): InjectionBinding<'inject', unknown>;
export function Inject(_token?: unknown): InjectionBinding<'inject', unknown> {
  return injectionBinding();
}

/**
 * The type-level form of `@Inject`: `counter: Inject<Counter>` injects the class `Counter`, and
 * `config: Inject<AppConfig, typeof CONFIG>` the value registered under the token `CONFIG` (a
 * string token is written as its literal type: `Inject<Db, 'db'>`). It is `T` itself; unlike a
 * parameter decorator, it type-checks under any compiler, TypeScript 7 included.
 *
 * @example
 * ```ts
 * constructor(private readonly config: Inject<AppConfig, typeof CONFIG>) {}
 * @Get('/') list(users: Inject<UserService>) { return users.all(); }
 * ```
 */
// biome-ignore lint/suspicious/noRedeclare: Inject's overloads and this alias share a name, as TypeScript allows
// biome-ignore lint/correctness/noUnusedVariables: the token is read from the annotation by @kiln/core/transformer
export type Inject<T, Token extends InjectionToken<unknown> | (abstract new (...args: never[]) => unknown) | string | symbol = never> = T;

/**
 * Chooses how the injected class is instantiated for this injection point (see `Scopes`).
 *
 * @example
 * ```ts
 * constructor(@Scope(Scopes.LOCAL) private readonly buffer: AuditBuffer) {}
 * ```
 */
// biome-ignore lint/suspicious/noRedeclare: the decorator and the type of its argument share the name, as in yasui's API
export function Scope<const S extends Scope>(_scope: S): InjectionBinding<'scope', S> {
  return injectionBinding();
}

/**
 * The class decorator through which the transformer's dependency list reaches the runtime. It is
 * added at emit time to every controller, class middleware and service whose constructor or
 * handlers take injected values. The list is a function so that classes declared later in the
 * module (or in a module that imports this one) are read only when the application is created.
 */
export function injectionPlan(plan: () => DependencyPlan) {
  return function (_class: Function, context: ClassDecoratorContext): void {
    context.metadata[kDependencies] = plan;
  };
}
