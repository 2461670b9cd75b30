// TypeScript 7's API (`typescript/unstable/sync`, `/ast`) is ES modules. The checker loads them
// with require(esm), which Node has from 20.19 and 22.12 on — except inside Node 22's module-hooks
// thread, where it throws 'The resolveSync() method is not implemented'. There `@kiln/core/register`
// imports them first (an asynchronous import works on every Node) and hands them over here.

/** The modules imported ahead, by the file they were resolved to. */
const imported = new Map<string, unknown>();

/** Keeps a module the caller imported, for {@link requireTypeScript7Module} to give instead of requiring it. */
export function provideImportedModule(resolvedFile: string, namespace: unknown): void {
  imported.set(resolvedFile, namespace);
}

/** One of TypeScript 7's API modules of the project: the one imported ahead, or else required. */
export function requireTypeScript7Module(projectRequire: NodeRequire, specifier: string): unknown {
  return imported.get(projectRequire.resolve(specifier)) ?? projectRequire(specifier);
}
