import type { KilnRequest } from '../request/kiln-request.js';
import { KilnError } from '../kiln-error.js';

/** Where a bound parameter comes from. */
export type ParameterSource = 'body' | 'param' | 'query' | 'header' | 'request';

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

const transformerMissing =
  'A Kiln parameter decorator ran at run time: @kiln/core/transformer did not compile this file. Add ' +
  '{ "transform": "@kiln/core/transformer", "transformProgram": true } to compilerOptions.plugins and build with tspc.';

function binding<S extends ParameterSource, N extends string, V = unknown>(): ParameterBinding<S, N, V> {
  // The transformer removes parameter decorators from the build; reaching this is a build mistake.
  return (() => {
    throw new KilnError('KILN009', transformerMissing);
  }) as unknown as ParameterBinding<S, N, V>;
}

/** The request body (parsed by Content-Type), or one field of it. */
export function Body(): ParameterBinding<'body', ''>;
export function Body<const N extends string>(name: N): ParameterBinding<'body', N>;
export function Body(_name?: string): ParameterBinding<'body', string> {
  return binding();
}

/** The route parameter `:name`, converted to the parameter's declared type. */
export function Param<const N extends string>(_name: N, _items?: ParameterItems): ParameterBinding<'param', N> {
  return binding();
}

/** The query parameter `name`; repeated occurrences make an array parameter. */
export function Query<const N extends string>(_name: N, _items?: ParameterItems): ParameterBinding<'query', N> {
  return binding();
}

/** The request header `name` (case-insensitive); an array parameter splits it on commas. */
export function Header<const N extends string>(_name: N, _items?: ParameterItems): ParameterBinding<'header', N> {
  return binding();
}

/** The whole request (a `KilnRequest`); the parameter's declared type must accept one (KILN115). */
export function Req(): ParameterBinding<'request', '', KilnRequest> {
  return binding();
}

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
