// The runtime-neutral core imports no `node:` module: a module that needs one asks for it here,
// when it needs it. Node (20.16+), Bun and Deno answer with the module; a runtime without Node's
// built-ins (workerd without `nodejs_compat`) answers `undefined`, and the caller says what is
// not available there.

interface BuiltinProcess {
  getBuiltinModule?: (id: string) => unknown;
}

/** `node:fs`, `node:zlib`, … on a runtime that has them, else `undefined`. */
export function nodeBuiltin<Module>(id: `node:${string}`): Module | undefined {
  const process = (globalThis as { process?: BuiltinProcess }).process;
  return process?.getBuiltinModule?.(id) as Module | undefined;
}
