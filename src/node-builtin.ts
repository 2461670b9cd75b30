import { kilnError } from './kiln-error.js';

type BuiltinLoader = (id: string) => unknown;

/**
 * A Node built-in module, loaded when a feature that needs it is first set up rather than by an
 * `import` at the top of a module: the `@kiln/core` entry stays loadable on runtimes without it.
 * `process.getBuiltinModule` is Node's (20.16+, 22.3+) and Bun's and Deno's synchronous way.
 */
export function nodeBuiltin<T>(id: `node:${string}`, feature: string, code: 'KILN012' | 'KILN013'): T {
  const load = (globalThis as { process?: { getBuiltinModule?: BuiltinLoader } }).process?.getBuiltinModule;
  const loaded = typeof load === 'function' ? load(id) : undefined;
  if (loaded === undefined) throw kilnError(code, 'missingBuiltin', feature, id);
  return loaded as T;
}

/**
 * A Node built-in module where the runtime has it (Node, Bun, Deno), else `undefined`: for code
 * that has something else to do without it (say so, or do without).
 */
export function optionalNodeBuiltin<T>(id: `node:${string}`): T | undefined {
  const load = (globalThis as { process?: { getBuiltinModule?: BuiltinLoader } }).process?.getBuiltinModule;
  return (typeof load === 'function' ? load(id) : undefined) as T | undefined;
}
