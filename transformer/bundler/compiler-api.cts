import Module from 'node:module';
import type * as ts from 'typescript';

/** The TypeScript a project builds with, as Kiln's build sees it. */
export interface ProjectCompiler {
  /** A TypeScript with the JavaScript compiler API (5.5 to 6.x): Kiln's analysis, emit and typia's transformer run on it. */
  readonly ts: typeof ts;
  /** The major version of the project's own `typescript` (7 for the native compiler), or that of `ts` when the project has none. */
  readonly projectMajor: number;
  /** Where `ts` was loaded from (`require.resolve`), to hand the same one to typia's transformer. */
  readonly resolved: string;
}

/** The alias a TypeScript 7 project installs TypeScript 6 under, for Kiln's build: `npm install -D typescript-6@npm:typescript@~6.0.3`. */
export const typeScript6Alias = 'typescript-6';

/**
 * The TypeScript Kiln's build runs on for a project. TypeScript 7's package has no compiler
 * API (only `typescript/unstable/*`, a checker API with no emit or transformers), so for a
 * TypeScript 7 project the build runs on the TypeScript 6 the project installs beside it, under
 * the {@link typeScript6Alias} alias (or Kiln's own, when that is 6).
 */
export function projectCompilerOf(projectRequire: NodeRequire): ProjectCompiler {
  const own = require.resolve('typescript');
  const projectPath = resolveFrom(projectRequire, 'typescript');
  if (projectPath === undefined) return { ts: require(own) as typeof ts, projectMajor: majorOf(require(own)), resolved: own };
  const project = require(projectPath) as typeof ts;
  const projectMajor = majorOf(project);
  if (typeof project.createProgram === 'function') return { ts: project, projectMajor, resolved: projectPath };
  for (const candidate of [resolveFrom(projectRequire, typeScript6Alias), own]) {
    if (candidate === undefined) continue;
    const loaded = require(candidate) as typeof ts;
    if (typeof loaded.createProgram === 'function') return { ts: loaded, projectMajor, resolved: candidate };
  }
  throw new Error(
    `@kiln/core: the project's TypeScript ${project.version} has no compiler API for Kiln's build (TypeScript 7 has none): ` +
      `npm install -D ${typeScript6Alias}@npm:typescript@~6.0.3 (docs/guide/typescript-7.md)`,
  );
}

/**
 * Loads a module (typia's transformer) whose own `require('typescript')` must give `compiler.ts`:
 * in a TypeScript 7 project, `typescript` resolves to 7, which typia's transformer cannot run on.
 * Only requests for `typescript` from inside typia's packages are redirected, for as long as the
 * process runs (typia's modules may require it lazily).
 */
export function requireWithTypeScript<T>(projectRequire: NodeRequire, specifier: string, compiler: ProjectCompiler): T {
  if (compiler.projectMajor < 7) return projectRequire(specifier) as T;
  redirectTypiaTypeScript(compiler.resolved);
  return projectRequire(specifier) as T;
}

const typiaFile = /[\\/]node_modules[\\/](typia|@typia[\\/][^\\/]+)[\\/]/;
let redirectedTo: string | undefined;

function redirectTypiaTypeScript(resolved: string): void {
  if (redirectedTo !== undefined) return;
  redirectedTo = resolved;
  const internal = Module as unknown as {
    _resolveFilename(request: string, parent: { filename?: string } | undefined, ...rest: unknown[]): string;
  };
  const original = internal._resolveFilename;
  internal._resolveFilename = function (request, parent, ...rest) {
    if (request === 'typescript' && parent?.filename !== undefined && typiaFile.test(parent.filename)) return redirectedTo!;
    return original.call(this, request, parent, ...rest);
  };
}

function resolveFrom(projectRequire: NodeRequire, name: string): string | undefined {
  try {
    return projectRequire.resolve(name);
  } catch {
    return undefined;
  }
}

function majorOf(tsi: { version?: string }): number {
  return Number.parseInt(tsi.version ?? '0', 10);
}
