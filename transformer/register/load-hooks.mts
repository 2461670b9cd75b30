// Node module hooks (module.register) behind `@kiln/core/register`: TypeScript files are compiled
// on load — Kiln's build for files with Kiln decorators or typia calls, type stripping for the rest.
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { MessagePort } from 'node:worker_threads';
import { KilnBuildService, type BuildMessage } from '../bundler/kiln-build-service.cjs';
import { stripTypes } from './type-stripping.cjs';
import { provideImportedModule } from '../checker/typescript-7-modules.cjs';

interface HookData {
  readonly port?: MessagePort;
  readonly tsconfig?: string;
}

type NextResolve = (specifier: string, context: unknown) => Promise<{ url: string; format?: string | null }>;
type NextLoad = (
  url: string,
  context: { format?: string | null },
) => Promise<{ format?: string | null; source?: string | ArrayBuffer | Uint8Array | null }>;

const typeScriptFile = /\.[cm]?ts$/;
let data: HookData = {};
/** One build service for every load, started by the first (loads run concurrently). */
let service: Promise<KilnBuildService> | undefined;

export function initialize(given: HookData | undefined): void {
  data = given ?? {};
}

/** NodeNext imports name the output (`./users.js`): when only `./users.ts` exists, that is the module. */
export async function resolve(specifier: string, context: { parentURL?: string }, nextResolve: NextResolve): Promise<unknown> {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    const relative =
      specifier.startsWith('./') || specifier.startsWith('../') || specifier.startsWith('/') || specifier.startsWith('file:');
    if (!relative || context.parentURL === undefined || (error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    const url = new URL(specifier, context.parentURL);
    for (const candidate of candidatesOf(url.pathname)) {
      if (existsSync(fileURLToPath(new URL(candidate, url)))) return nextResolve(new URL(candidate, url).href, context);
    }
    throw error;
  }
}

function candidatesOf(pathname: string): string[] {
  const match = /\.([cm]?)js$/.exec(pathname);
  const base = pathname.slice(pathname.lastIndexOf('/') + 1);
  if (match !== null) return [`${base.slice(0, -match[0].length)}.${match[1]}ts`];
  return /\.[^/]+$/.test(base) ? [] : [`${base}.ts`, `${base}/index.ts`];
}

export async function load(url: string, context: { format?: string | null }, nextLoad: NextLoad): Promise<unknown> {
  if (!url.startsWith('file:') || /[\\/]node_modules[\\/]/.test(url)) return nextLoad(url, context);
  const fileName = fileURLToPath(url);
  if (!typeScriptFile.test(fileName) || fileName.endsWith('.d.ts') || fileName.endsWith('.cts')) return nextLoad(url, context);
  // Read through Node's own loader (which also reports the file to `node --watch`).
  const loaded = await nextLoad(url, { ...context, format: 'module' });
  const code = typeof loaded.source === 'string' ? loaded.source : Buffer.from(loaded.source as Uint8Array).toString('utf8');

  service ??= startService(resolvePath(data.tsconfig ?? 'tsconfig.json'));
  const result = (await service).transform(fileName, code);
  if (result !== undefined) {
    data.port?.postMessage({ watch: [url, ...result.watchFiles.map((file) => pathToFileURL(file).href)] });
    if (result.errors.length > 0) throw refused(fileName, result.errors);
    const map =
      result.map === undefined
        ? ''
        : `\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify(result.map)).toString('base64')}`;
    return { format: 'module', source: result.code + map, shortCircuit: true };
  }
  return { format: 'module', source: stripTypes(createRequire(fileName), fileName, code), shortCircuit: true };
}

async function startService(tsconfig: string): Promise<KilnBuildService> {
  await importTypeScript7Api(tsconfig);
  return new KilnBuildService({ tsconfig });
}

/**
 * In a TypeScript 7 project, imports TypeScript 7's API modules for its checker: on this thread
 * Node 22 cannot require them (see checker/typescript-7-modules.cts). Nothing in other projects.
 */
async function importTypeScript7Api(tsconfig: string): Promise<void> {
  const projectRequire = createRequire(tsconfig);
  for (const specifier of ['typescript/unstable/sync', 'typescript/unstable/ast']) {
    let resolved: string;
    try {
      resolved = projectRequire.resolve(specifier);
    } catch {
      return; // not TypeScript 7: its package alone has these entry points
    }
    provideImportedModule(resolved, await import(pathToFileURL(resolved).href));
  }
}

/** The error that refuses a module: every KILN error at its place, nothing of the loader's own stack. */
function refused(fileName: string, errors: readonly BuildMessage[]): Error {
  const lines = errors.map((e) =>
    e.file === undefined ? `  error ${e.text}` : `  ${e.file}:${e.line}:${(e.column ?? 0) + 1} - error ${e.text}`,
  );
  const error = new Error(`@kiln/core/register refused ${fileName}:\n${lines.join('\n')}`);
  error.stack = error.message;
  return error;
}
