import { kilnError } from '../kiln-error.js';
import type { EnvSource } from './read-env.js';

/**
 * The application's configuration, read from the environment and typed by `T`: each property
 * of `T` is the variable of the same name, converted as a route parameter of that type would be
 * (`number`, `boolean`, enums and literal unions, `Date`, arrays as comma-separated lists, typia
 * tags such as `string & tags.Format<'uri'>` checked). `@kiln/core/transformer` writes the reader
 * at build time; at start-up a missing or invalid variable throws one `KILN051` error that lists
 * every problem by name, never showing the value of a variable whose name says secret, token,
 * password or key.
 *
 * `source` defaults to `process.env` (Node, Bun) or `Deno.env` (Deno); on Workers pass the `env`
 * binding of the fetch handler.
 *
 * @example
 * ```ts
 * interface AppConfig {
 *   PORT: number;
 *   LOG_LEVEL?: 'debug' | 'info' | 'warn';
 *   REDIS_URL: string & tags.Format<'uri'>;
 *   API_TOKEN: string;
 * }
 * export const config = env<AppConfig>();
 * ```
 */
export function env<T extends object>(source?: EnvSource): T {
  void source;
  throw kilnError('KILN052', 'envNotCompiled');
}
