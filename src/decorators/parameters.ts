import type { KilnRequest } from '../request/kiln-request.js';
import { kilnError } from '../kiln-error.js';

/** Where a bound parameter comes from. */
export type ParameterSource = 'body' | 'param' | 'query' | 'header' | 'cookie' | 'request';

/**
 * The type every Kiln parameter decorator returns. `@kiln/core/transformer` recognises parameter
 * decorators by this type (not by name), so aliases, re-exports and custom decorators work; the
 * literal types carry the source and the name into the compiler. The phantom property's name is
 * read by transformer/parameter-recognition.cts: change both together.
 */
export interface ParameterBinding<Source extends ParameterSource, Name extends string, Value = unknown> {
  (target: unknown, context: unknown): void;
  /**
   * `value` is the type the binding injects when it is known without conversion (`@Req()`, a
   * request property): the transformer reports KILN115 when the parameter's declared type does
   * not accept it.
   */
  readonly __kilnParameter: { readonly source: Source; readonly name: Name; readonly value: Value };
}

/**
 * The names `routeRequestParamDecorator` accepts: the data properties of `KilnRequest` (its
 * methods, such as `parseBody`, would arrive unbound and are left out).
 */
export type KilnRequestProperty = {
  [K in keyof KilnRequest & string]: KilnRequest[K] extends (...args: never[]) => unknown ? never : K;
}[keyof KilnRequest & string];

/** `[Number]`, `[Boolean]`, `[Date]`, `[String]`, an allowed-values array, or an enum object. */
export type ParameterItems = readonly unknown[] | Readonly<Record<string, string | number>>;

function binding<S extends ParameterSource, N extends string, V = unknown>(): ParameterBinding<S, N, V> {
  // The transformer removes parameter decorators from the build; reaching this is a build mistake.
  return (() => {
    throw kilnError('KILN009', 'parameterDecorator');
  }) as unknown as ParameterBinding<S, N, V>;
}

/** The request body (parsed by Content-Type), or one field of it. */
export function Body(): ParameterBinding<'body', ''>;
export function Body<const N extends string>(name: N): ParameterBinding<'body', N>;
export function Body(_name?: string): ParameterBinding<'body', string> {
  return binding();
}

/**
 * The type-level form of `@Body()`: a parameter typed `Body<T>` receives the request body as a `T`,
 * and `Body<T, 'field'>` one field of it, exactly as `@Body()` and `@Body('field')` do. It is `T`
 * itself (the handler sees a `T`); `@kiln/core/transformer` reads the source from the annotation.
 * Unlike a parameter decorator, it type-checks under any compiler, TypeScript 7 included.
 *
 * @example
 * ```ts
 * @Post('/items') create(item: Body<NewItem>) { return item; }
 * ```
 */
// A type alias beside the decorator of the same name: one import gives both forms.
// biome-ignore lint/suspicious/noRedeclare: Body's overloads and this alias share a name, as TypeScript allows
// biome-ignore lint/correctness/noUnusedVariables: the name is read from the annotation by @kiln/core/transformer
export type Body<T, Field extends string = never> = T;

/** The route parameter `:name`, converted to the parameter's declared type. */
export function Param<const N extends string>(_name: N, _items?: ParameterItems): ParameterBinding<'param', N> {
  return binding();
}

/**
 * The type-level form of `@Param(name)`: the route parameter named like the handler parameter (or
 * `Name`), converted to `T` as `@Param` converts it. It is `T` itself, so `id: Param<number>` is a
 * `number` in the handler; it type-checks under any compiler, TypeScript 7 included.
 *
 * @example
 * ```ts
 * @Get('/items/:id') get(id: Param<number>) { return { id }; }
 * @Get('/users/:user-id') user(userId: Param<string, 'user-id'>) { return { userId }; }
 * ```
 */
// biome-ignore lint/correctness/noUnusedVariables: the name is read from the annotation by @kiln/core/transformer
export type Param<T, Name extends string = never> = T;

/** The query parameter `name`; repeated occurrences make an array parameter. */
export function Query<const N extends string>(_name: N, _items?: ParameterItems): ParameterBinding<'query', N> {
  return binding();
}

/**
 * The type-level form of `@Query(name)`: the query parameter named like the handler parameter (or
 * `Name`), converted to `T`; an array type collects repeated occurrences. It is `T` itself.
 *
 * @example
 * ```ts
 * @Get('/items') list(tags: Query<string[]>, sort?: Query<'asc' | 'desc', 'order'>) { return { tags, sort }; }
 * ```
 */
// biome-ignore lint/correctness/noUnusedVariables: the name is read from the annotation by @kiln/core/transformer
export type Query<T, Name extends string = never> = T;

/** The request header `name` (case-insensitive); an array parameter splits it on commas. */
export function Header<const N extends string>(_name: N, _items?: ParameterItems): ParameterBinding<'header', N> {
  return binding();
}

/**
 * The type-level form of `@Header(name)`: the request header named like the handler parameter (or
 * `Name`, case-insensitive), converted to `T`; an array type splits it on commas. It is `T` itself.
 *
 * @example
 * ```ts
 * @Get('/me') me(tenant?: Header<string, 'x-tenant'>) { return { tenant }; }
 * ```
 */
// biome-ignore lint/correctness/noUnusedVariables: the name is read from the annotation by @kiln/core/transformer
export type Header<T, Name extends string = never> = T;

/**
 * The cookie `name` of the request (`req.cookies[name]`, percent-decoded), converted to the
 * parameter's declared type as `@Query` converts; described in OpenAPI as `in: cookie`. A signed
 * cookie arrives as sent (`value.signature`): verify it with `cookieSigner().get(req, name)`.
 *
 * @example
 * ```ts
 * @Get('/prefs') prefs(@Cookie('theme') theme: 'light' | 'dark' = 'light', @Cookie('visits') visits?: number) { ... }
 * ```
 */
export function Cookie<const N extends string>(_name: N, _items?: ParameterItems): ParameterBinding<'cookie', N> {
  return binding();
}

/**
 * The type-level form of `@Cookie(name)`: the cookie named like the handler parameter (or `Name`),
 * converted to `T`. It is `T` itself; it type-checks under any compiler, TypeScript 7 included.
 *
 * @example
 * ```ts
 * @Get('/prefs') prefs(theme?: Cookie<'light' | 'dark'>, visits?: Cookie<number, 'visit-count'>) { return { theme, visits }; }
 * ```
 */
// biome-ignore lint/correctness/noUnusedVariables: the name is read from the annotation by @kiln/core/transformer
export type Cookie<T, Name extends string = never> = T;

/** The whole request (a `KilnRequest`); the parameter's declared type must accept one (KILN115). */
export function Req(): ParameterBinding<'request', '', KilnRequest> {
  return binding();
}

/**
 * The type-level form of `@Req()` and of request-property decorators: `req: Req` is the whole
 * request (a `KilnRequest`); `ip: Req<'ip'>` is `req.ip`, as a decorator made by
 * `routeRequestParamDecorator('ip')` injects it.
 *
 * @example
 * ```ts
 * @Get('/whoami') whoami(ip: Req<'ip'>, req: Req) { return { ip, path: req.path }; }
 * ```
 */
export type Req<Property extends KilnRequestProperty = never> = [Property] extends [never] ? KilnRequest : KilnRequest[Property];

/**
 * Makes a parameter decorator that injects one property of the request. Only real data
 * properties of `KilnRequest` are accepted (`routeRequestParamDecorator('nope')` is a type error),
 * and the decorator only fits a parameter whose declared type accepts `KilnRequest[P]`: `@Ip() ip:
 * number` fails the build with KILN115, because `req.ip` is `string | undefined`.
 *
 * @example
 * ```ts
 * export const Ip = routeRequestParamDecorator('ip');
 * @Get('/whoami') whoami(@Ip() ip?: string) { return { ip }; }
 * ```
 */
export function routeRequestParamDecorator<const P extends KilnRequestProperty>(
  _property: P,
): () => ParameterBinding<'request', P, KilnRequest[P]> {
  return () => binding();
}
