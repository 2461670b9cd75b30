import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import type * as ts from 'typescript';
import { compileProgram, type CompiledProgram, type KilnTransformerConfig } from '../program/program-transformer.cjs';
import { emitTransformer } from '../emit/emit-transformer.cjs';
import { relocateValidatorDiagnostics } from '../program/validator-diagnostics.cjs';
import { typiaConfigured } from '../analyse/body-validation.cjs';
import { ProjectFiles } from './project-files.cjs';
import { dependenciesOf } from './type-dependencies.cjs';
import { projectCompilerOf, requireWithTypeScript, type ProjectCompiler } from './compiler-api.cjs';
import { TypeScript7Session } from '../checker/typescript-7-session.cjs';
import { sharingEmitHelpers } from './shared-emit-helpers.cjs';

/** Options of the bundler plugins and `@kiln/core/register`: the tsconfig plugin entry's, plus where the tsconfig is. */
export interface KilnBuildOptions extends KilnTransformerConfig {
  /** The project's tsconfig.json. Default: `tsconfig.json` in the current directory. */
  readonly tsconfig?: string;
  /**
   * The type checker Kiln's analysis asks (docs/guide/typescript-7.md): `'typescript-7'`, the
   * project's TypeScript 7 through `typescript/unstable/sync`; `'typescript-6'`, the TypeScript 6
   * program the build emits from. Default: the one matching the project's `typescript`.
   */
  readonly checker?: 'typescript-6' | 'typescript-7';
}

/** A KILN (or typia) error, with the place it is about. */
export interface BuildMessage {
  readonly text: string;
  /** Absolute file name. */
  readonly file?: string;
  /** 1-based. */
  readonly line?: number;
  /** 0-based, as esbuild and Rollup count. */
  readonly column?: number;
}

export interface SourceMap {
  version: number;
  sources: string[];
  sourcesContent?: (string | null)[];
  names: string[];
  mappings: string;
  file?: string;
}

/** How the service's output is used: by a bundler that bundles it, or module by module. */
export interface KilnBuildTarget {
  /**
   * The output is bundled (esbuild with `bundle: true`): files import TypeScript's decorator
   * helpers from `kiln-ts-helper:N` specifiers (shared-emit-helpers.cts), which the bundler serves.
   */
  readonly bundled?: boolean;
}

/** What a file becomes: JavaScript a bundler or Node can run, or the errors that stop it. */
export interface TransformedModule {
  /** ES module JavaScript: binders written, parameter decorators gone, decorators downlevelled, typia validators in. */
  readonly code: string;
  readonly map: SourceMap | undefined;
  /** Non-empty: the file must not be built (`code` is then the input unchanged). */
  readonly errors: readonly BuildMessage[];
  /** The project files this file's output depends on for types: a change to any of them must transform it again. */
  readonly watchFiles: readonly string[];
  /** KILN152 warnings in this file (a part of a return type sent as it is): printed; the file is built. */
  readonly warnings?: readonly BuildMessage[];
}

const ownTypeScript = /\.[cm]?tsx?$/;
const declarationFile = /\.d\.[cm]?tsx?$/;
/** Kiln's own ts-patch entry in compilerOptions.plugins, as a consumer writes it or as a path. */
const kilnTransform = /(^|[\\/])(@kiln[\\/]core[\\/]transformer|transformer[\\/]index\.cjs)$/;

/** One version of the project, compiled: the language service's program and what Kiln made of it. */
interface CompiledState {
  readonly source: ts.Program;
  readonly compiled: CompiledProgram;
  typia?: ts.TransformerFactory<ts.SourceFile>;
  readonly typiaDiagnostics: ts.Diagnostic[];
}

type TypiaTransform = (
  program: ts.Program,
  options: unknown,
  extras: { addDiagnostic(diagnostic: ts.Diagnostic): number },
) => ts.TransformerFactory<ts.SourceFile>;

/**
 * Kiln's build for tools that compile one file at a time (esbuild, Vite, vitest, Node's module
 * hooks): the project's tsconfig.json is kept as a TypeScript language service, so each file is
 * analysed on a type-checked program that is updated incrementally, never rebuilt per file. The
 * analysis and rewrite are {@link compileProgram}'s, the same as tspc's: one compile per program
 * version, then each file is emitted from it with Kiln's emit phase and typia's transformer.
 *
 * @example
 * ```ts
 * const service = new KilnBuildService({ tsconfig: 'tsconfig.json' });
 * const result = service.transform('/app/src/users.ts', source); // undefined: nothing of Kiln or typia in it
 * ```
 */
export class KilnBuildService {
  readonly #ts: typeof ts;
  readonly #projectDir: string;
  readonly #config: KilnTransformerConfig;
  readonly #options: ts.CompilerOptions;
  readonly #rootNames: Set<string>;
  readonly #files = new ProjectFiles();
  readonly #service: ts.LanguageService;
  readonly #compilerHost: ts.CompilerHost;
  readonly #configErrors: readonly BuildMessage[];
  readonly #typia: TypiaTransform | undefined;
  /** TypeScript 7's checker, when the analysis asks it (a TypeScript 7 project). */
  readonly #typeScript7: TypeScript7Session | undefined;
  /** The `after` transformers of every emit: the shared helpers' when bundling (see {@link KilnBuildTarget}). */
  readonly #after: ts.TransformerFactory<ts.SourceFile>[];
  /** The whole project compiled once, by the first build: one checker for every file. */
  #whole: CompiledState | undefined;
  /** After an edit, each file transformed again is compiled on its own, on the edited project. */
  #partial: { readonly source: ts.Program; readonly byFile: Map<string, CompiledState> } | undefined;
  /** The latest compile: the next one keeps its trees of the files unchanged since, and its program's structure. */
  #last: CompiledState | undefined;
  /** Each file's last result, valid while neither it nor a file it depends on for types changes. */
  readonly #results = new Map<string, { readonly key: string; readonly result: TransformedModule | undefined }>();

  constructor(options: KilnBuildOptions = {}, target: KilnBuildTarget = {}) {
    const tsconfig = resolve(options.tsconfig ?? 'tsconfig.json');
    this.#projectDir = dirname(tsconfig);
    // The project's own TypeScript (typia's transformer uses it too); for a TypeScript 7 project, the TypeScript 6 beside it.
    const projectRequire = createRequire(tsconfig);
    const compiler = projectCompilerOf(projectRequire);
    this.#ts = compiler.ts;
    const tsi = this.#ts;

    const parsed = tsi.getParsedCommandLineOfConfigFile(
      tsconfig,
      {},
      {
        ...tsi.sys,
        onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
          throw new Error(`@kiln/core: cannot read ${tsconfig}: ${tsi.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`);
        },
      },
    )!;
    this.#configErrors = parsed.errors.map((d) => this.#message(d));
    const kilnEntry = pluginEntries(parsed.options).find(
      (entry) => typeof entry.transform === 'string' && kilnTransform.test(entry.transform),
    );
    // The tsconfig plugin entry's options (disable, bindingModule, typedResponses, ...), then the plugin's own.
    const { tsconfig: _tsconfig, checker: checkerOption, ...pluginOptions } = options;
    const { transform: _transform, transformProgram: _transformProgram, ...entryOptions } = kilnEntry ?? {};
    this.#config = { ...(entryOptions as KilnTransformerConfig), ...pluginOptions };
    this.#options = emitOptions(tsi, parsed.options);
    this.#rootNames = new Set(parsed.fileNames);
    this.#typia = typiaConfigured(parsed.options) ? typiaTransformOf(projectRequire, compiler) : undefined;

    const files = this.#files;
    const host: ts.LanguageServiceHost = {
      getCompilationSettings: () => this.#options,
      getProjectVersion: undefined,
      getScriptFileNames: () => [...this.#rootNames],
      getScriptVersion: (fileName) => files.version(fileName),
      getScriptSnapshot: (fileName) => {
        const text = files.text(fileName);
        return text === undefined ? undefined : tsi.ScriptSnapshot.fromString(text);
      },
      getCurrentDirectory: () => this.#projectDir,
      getDefaultLibFileName: (o) => tsi.getDefaultLibFilePath(o),
      fileExists: (fileName) => files.text(fileName) !== undefined,
      readFile: (fileName) => files.text(fileName),
      readDirectory: tsi.sys.readDirectory,
      directoryExists: tsi.sys.directoryExists,
      getDirectories: tsi.sys.getDirectories,
      realpath: tsi.sys.realpath,
      useCaseSensitiveFileNames: () => tsi.sys.useCaseSensitiveFileNames,
      getProjectReferences: () => parsed.projectReferences,
    };
    this.#service = tsi.createLanguageService(host, tsi.createDocumentRegistry(tsi.sys.useCaseSensitiveFileNames, this.#projectDir));
    this.#compilerHost = tsi.createCompilerHost(this.#options);
    const checker = checkerOption ?? (compiler.projectMajor >= 7 ? 'typescript-7' : 'typescript-6');
    this.#typeScript7 = checker === 'typescript-7' ? new TypeScript7Session(projectRequire, tsconfig, (f) => files.text(f)) : undefined;
    // With importHelpers or noEmitHelpers TypeScript writes no helpers into a file: nothing to share.
    const writesHelpers = parsed.options.importHelpers !== true && parsed.options.noEmitHelpers !== true;
    this.#after = target.bundled === true && writesHelpers ? [sharingEmitHelpers(tsi)] : [];
  }

  /**
   * Compiles one TypeScript file of the project. `undefined` when it holds nothing of Kiln's or
   * typia's: the caller compiles it as usual.
   */
  transform(fileName: string, code: string): TransformedModule | undefined {
    if (!ownTypeScript.test(fileName) || declarationFile.test(fileName)) return undefined;
    // Cheap filter first: without a decorator or typia there is nothing to do and no program to build.
    const usesTypia = /['"]typia['"]/.test(code);
    if (!code.includes('@') && !usesTypia) return undefined;
    fileName = fileName.replace(/\\/g, '/');
    this.#files.provide(fileName, code);
    this.#rootNames.add(fileName);
    const previous = this.#results.get(fileName);
    if (previous !== undefined && previous.key === this.#versionKey(fileName, previous.result?.watchFiles ?? [])) return previous.result;
    const result = this.#transform(fileName, code, usesTypia);
    this.#results.set(fileName, { key: this.#versionKey(fileName, result?.watchFiles ?? []), result });
    return result;
  }

  /** The versions of a file and of the files it depends on: its last result stays valid while these do. */
  #versionKey(fileName: string, watchFiles: readonly string[]): string {
    return [fileName, ...watchFiles].map((file) => this.#files.version(file)).join(' ');
  }

  #transform(fileName: string, code: string, usesTypia: boolean): TransformedModule | undefined {
    const tsi = this.#ts;
    const state = this.#compile(fileName);
    const { compiled } = state;
    const plan = compiled.plans.get(fileName);
    const errors = [
      ...compiled.kilnErrors.filter((d) => d.file === undefined || d.file.fileName === fileName || /\.json$/.test(d.file.fileName)),
      ...(plan === undefined ? [] : this.#configErrors.map((m) => ({ messageText: m.text }) as ts.Diagnostic)),
    ];
    if (plan === undefined && !usesTypia) {
      // A file with Kiln decorators always has a plan; KILN130 alone (a config error) still stops a Kiln file only.
      return undefined;
    }
    const watchFiles = dependenciesOf(tsi, state.source, fileName);
    if (errors.length > 0) return { code, map: undefined, errors: errors.map((d) => this.#message(d)), watchFiles };

    const sourceFile = compiled.program.getSourceFile(fileName);
    if (sourceFile === undefined) return undefined;
    let output: string | undefined;
    const before = [emitTransformer(tsi, compiled.plans)];
    if (this.#typia !== undefined) {
      state.typia ??= this.#typia(compiled.program, {}, { addDiagnostic: (d: ts.Diagnostic) => state.typiaDiagnostics.push(d) });
      before.push(state.typia);
    }
    const typiaBefore = state.typiaDiagnostics.length;
    const result = compiled.program.emit(
      sourceFile,
      (name: string, text: string) => {
        if (/\.[cm]?js$/.test(name)) output = text;
      },
      undefined,
      false,
      { before, after: this.#after },
    );
    const emitted = [...result.diagnostics, ...state.typiaDiagnostics.slice(typiaBefore)];
    relocateValidatorDiagnostics(emitted, compiled.plans, state.source);
    const emitErrors = emitted.filter((d) => d.category === tsi.DiagnosticCategory.Error);
    if (emitErrors.length > 0 || output === undefined) {
      return {
        code,
        map: undefined,
        errors:
          emitErrors.length > 0
            ? emitErrors.map((d) => this.#message(d))
            : [{ text: `@kiln/core: TypeScript emitted nothing for ${fileName}` }],
        watchFiles,
      };
    }
    const warnings = compiled.kilnWarnings.filter((d) => d.file?.fileName === fileName).map((d) => this.#message(d));
    return { ...withSourceMap(output, fileName, code), errors: [], watchFiles, warnings };
  }

  /**
   * The compiled program to emit a file from. The first build compiles the whole project once; a
   * rebuild after an edit compiles only the file asked for, on the edited project (the other
   * files keep their results), so its cost does not grow with the project: the program it emits
   * from is the latest compiled one with the edited files replaced.
   */
  #compile(fileName: string): CompiledState {
    const source = this.#service.getProgram()!;
    const compile = (only?: ReadonlySet<string>): CompiledState => {
      const checker = this.#typeScript7?.checkerFor(this.#ts, source);
      const compiled = compileProgram({
        ts: this.#ts,
        program: source,
        host: this.#compilerHost,
        config: this.#config,
        only,
        checker,
        previous: only && this.#last,
      });
      this.#last = { source, compiled, typiaDiagnostics: [] };
      return this.#last;
    };
    this.#whole ??= compile();
    if (this.#whole.source === source) return this.#whole;
    if (this.#partial?.source !== source) this.#partial = { source, byFile: new Map() };
    let state = this.#partial.byFile.get(fileName);
    if (state === undefined) {
      state = compile(new Set([fileName]));
      this.#partial.byFile.set(fileName, state);
    }
    return state;
  }

  #message(diagnostic: ts.Diagnostic): BuildMessage {
    const text = this.#ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    if (diagnostic.file === undefined || diagnostic.start === undefined) return { text };
    const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    return { text, file: diagnostic.file.fileName, line: line + 1, column: character };
  }
}

/**
 * The compiler options the service emits with. Bundlers and Node's hooks take ES modules; the
 * emit goes to memory, with an inline source map that is handed on; decorators are downlevelled
 * (target ES2022 at most), so what is handed on runs as standard decorators, with no legacy option.
 * No type check before each file's emit (`noCheck`, TypeScript 5.6 on): a bundler reports no type
 * errors, and the emit asks the checker only what it needs (as `transpileModule` does); on a
 * rebuild after an edit the whole-file check was the largest cost.
 */
function emitOptions(tsi: typeof ts, options: ts.CompilerOptions): ts.CompilerOptions {
  const target = options.target === undefined || options.target > tsi.ScriptTarget.ES2022 ? tsi.ScriptTarget.ES2022 : options.target;
  const emit: ts.CompilerOptions = {
    ...options,
    target,
    module: tsi.ModuleKind.ESNext,
    moduleResolution: tsi.ModuleResolutionKind.Bundler,
    noEmit: false,
    emitDeclarationOnly: false,
    declaration: false,
    declarationMap: false,
    composite: false,
    incremental: false,
    tsBuildInfoFile: undefined,
    sourceMap: false,
    inlineSourceMap: true,
    inlineSources: false,
    noEmitOnError: false,
    outDir: undefined,
    outFile: undefined,
    noCheck: noCheckKnown(tsi),
  };
  // TypeScript keeps the parsed tsconfig.json as a non-enumerable option (a spread drops it): KILN130 points into it.
  Object.defineProperty(emit, 'configFile', { enumerable: false, value: options.configFile });
  return emit;
}

/** Whether this TypeScript has the public `noCheck` option (5.6 on): 5.5 had it internal only. */
function noCheckKnown(tsi: typeof ts): boolean {
  const [major = 0, minor = 0] = tsi.versionMajorMinor.split('.').map(Number);
  return major > 5 || (major === 5 && minor >= 6);
}

function pluginEntries(options: ts.CompilerOptions): Record<string, unknown>[] {
  const plugins: unknown = options['plugins'];
  return Array.isArray(plugins) ? plugins.filter((p): p is Record<string, unknown> => typeof p === 'object' && p !== null) : [];
}

/** typia's transformer, from the project (typia is the app's dependency). */
function typiaTransformOf(projectRequire: NodeRequire, compiler: ProjectCompiler): TypiaTransform {
  let loaded: { default?: TypiaTransform; transform?: TypiaTransform } | undefined;
  try {
    loaded = requireWithTypeScript(projectRequire, 'typia/lib/transform', compiler);
  } catch {
    loaded = undefined;
  }
  const transform = loaded?.transform ?? loaded?.default;
  if (transform === undefined)
    throw new Error(
      "@kiln/core: tsconfig.json lists typia's transformer, but 'typia/lib/transform' cannot be loaded from the project: npm install typia",
    );
  return transform;
}

const inlineMap = /\n?\/\/# sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)\s*$/;

/** Splits TypeScript's inline source map off the code, pointing it at the original file and text. */
function withSourceMap(output: string, fileName: string, original: string): { code: string; map: SourceMap | undefined } {
  const match = inlineMap.exec(output);
  if (match === null) return { code: output, map: undefined };
  const map = JSON.parse(Buffer.from(match[1]!, 'base64').toString('utf8')) as SourceMap;
  map.sources = [fileName];
  map.sourcesContent = [original];
  delete map.file;
  delete (map as { sourceRoot?: string }).sourceRoot;
  return { code: output.slice(0, match.index), map };
}
