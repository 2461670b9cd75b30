import type * as ts from 'typescript';
import { typeScript6Alias } from '../bundler/compiler-api.cjs';

interface Esbuild {
  transformSync(code: string, options: Record<string, unknown>): { code: string };
}

/**
 * A TypeScript file without Kiln decorators or typia calls, as JavaScript: esbuild's type
 * stripping when the project has esbuild (fast), TypeScript's `transpileModule` otherwise.
 */
export function stripTypes(projectRequire: NodeRequire, fileName: string, code: string): string {
  const esbuild = tryRequire<Esbuild>(projectRequire, 'esbuild');
  if (esbuild !== undefined) {
    return esbuild.transformSync(code, { loader: 'ts', format: 'esm', target: 'node20', sourcemap: 'inline', sourcefile: fileName }).code;
  }
  // TypeScript 7's package has no transpileModule: the TypeScript 6 beside it, or Kiln's own, does it.
  const tsi =
    [tryRequire<typeof ts>(projectRequire, 'typescript'), tryRequire<typeof ts>(projectRequire, typeScript6Alias)].find(
      (candidate) => typeof candidate?.transpileModule === 'function',
    ) ?? (require('typescript') as typeof ts);
  return tsi.transpileModule(code, {
    fileName,
    compilerOptions: { module: tsi.ModuleKind.ESNext, target: tsi.ScriptTarget.ES2022, inlineSourceMap: true, inlineSources: true },
  }).outputText;
}

function tryRequire<T>(projectRequire: NodeRequire, name: string): T | undefined {
  try {
    return projectRequire(name) as T;
  } catch {
    return undefined;
  }
}
