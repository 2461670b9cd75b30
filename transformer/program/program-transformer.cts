import { createHash } from 'node:crypto';
import type * as ts from 'typescript';
import { analyseProgram, type ProgramModel } from '../analyse/analyse-program.cjs';
import { emitFileCode, type BinderOptions } from '../emit/binder-emitter.cjs';
import { setAsideStatements } from '../emit/unchecked-statements.cjs';
import type { EmitPlan } from '../emit/emit-transformer.cjs';
import { kilnCodeOf, kilnGlobalDiagnostic } from '../diagnostics/kiln-diagnostic.cjs';
import { diagnosticMessage } from '../diagnostics/diagnostic-codes.cjs';
import type { ErrorsFormat } from '../openapi/response-objects.cjs';
import { hookDiagnostics, hookEmit, type HookOptions } from './program-hooks.cjs';
import { rewriteSource } from '../emit/source-rewriter.cjs';
import type { Toolkit } from '../toolkit.cjs';
import type { KilnChecker } from '../checker/kiln-checker.cjs';
import { generateOpenApi } from '../openapi/openapi-generation.cjs';
import type { OpenApiOptions } from '../openapi/openapi-types.cjs';
import { analyseResponses, type ResponsesModel, type TypedResponsesOption } from '../analyse/return-type.cjs';
import { analyseSockets, type SocketsModel } from '../analyse/socket-messages.cjs';
import { emitSockets } from '../emit/socket-emitter.cjs';
import { emitSerializers } from '../emit/serializer-emitter.cjs';
import type { FileModel } from '../analyse/model.cjs';
import { generateClient, type TypedClientOptions } from '../client/client-generation.cjs';
import { analyseEnvCalls, type EnvModel } from '../analyse/env-config.cjs';
import { emitEnvPlans } from '../emit/env-emitter.cjs';

/** Options of the plugin entry in tsconfig.json. */
export interface KilnTransformerConfig {
  /** The module generated binders import their helpers from. Default `'@kiln/core/binding'`. */
  readonly bindingModule?: string;
  /**
   * KILN codes not to report, e.g. `["KILN105"]` in a test project that builds several apps which
   * declare the same route. The runtime's start-up checks still apply.
   */
  readonly disable?: readonly string[];
  /**
   * Typed responses (docs: guide/typed-responses.md): `true` (the default when typia's transformer is in
   * `plugins`) sends `JSON.stringify` of each route's value projected to its return type (only
   * the declared properties; docs/guide/typed-responses.md);
   * `'assert'` also checks the value against the type first (a 500 when it does not match: for
   * development); `false` keeps `JSON.stringify` for every route.
   */
  readonly typedResponses?: TypedResponsesOption;
  /**
   * Writes the OpenAPI 3.1 document of the program's routes at build time, e.g.
   * `{ "output": "openapi.json", "info": { "title": "Bookshop", "version": "1.0.0" } }` (output relative to the tsconfig).
   */
  readonly openapi?: OpenApiOptions;
  /**
   * Writes the typed client of the program's routes at build time, e.g. `{ "output": "src/client.ts" }`
   * (relative to the tsconfig): docs/guide/typed-client.md.
   */
  readonly client?: TypedClientOptions;
  /**
   * The error body the server answers with, as `createServer`'s `errors` option says: `'json'`
   * (the default) or `'problem+json'` (RFC 9457). The OpenAPI document and the typed client
   * describe error answers in this format (docs/guide/openapi.md, "Problem details").
   */
  readonly errors?: ErrorsFormat;
}

/** The `errors` option, checked (KILN177 for anything but the two formats, which then builds as 'json'). */
function errorsFormatOf(tsi: typeof ts, value: unknown): { format: ErrorsFormat; diagnostics: ts.Diagnostic[] } {
  if (value === undefined || value === 'json' || value === 'problem+json') return { format: value ?? 'json', diagnostics: [] };
  const shown = typeof value === 'string' ? JSON.stringify(value) : value === null ? 'null' : typeof value;
  return { format: 'json', diagnostics: [kilnGlobalDiagnostic(tsi, diagnosticMessage('errorsOptionInvalid', 'notAFormat', shown))] };
}

/** A program compiled by Kiln: what the checker and emitter see, and what Kiln found. */
export interface CompiledProgram {
  /** The program with each Kiln file rewritten (decorators blanked, binders appended); the original when none needed it. */
  readonly program: ts.Program;
  readonly model: ProgramModel;
  /** What the emit phase needs, by file name. */
  readonly plans: ReadonlyMap<string, EmitPlan>;
  /** The rewritten text by file name. */
  readonly texts: ReadonlyMap<string, string>;
  /** Original text by rewritten text, for source maps that embed sources. */
  readonly originalTexts: ReadonlyMap<string, string>;
  /** The KILN errors to report (already filtered by `disable`). */
  readonly kilnErrors: readonly ts.Diagnostic[];
  /** The KILN warnings (KILN152), filtered by `disable`: printed, never counted as errors. */
  readonly kilnWarnings: readonly ts.Diagnostic[];
}

/**
 * A program compiled before this one, from an earlier version of the same project (the bundler
 * path after an edit): the program it was compiled from and what it became.
 */
export interface PreviousCompile {
  readonly source: ts.Program;
  readonly compiled: CompiledProgram;
}

/** What {@link compileProgram} compiles, and how. */
export interface CompileRequest {
  readonly ts: typeof ts;
  readonly program: ts.Program;
  /** The host the program was built with; default: a compiler host for its options. */
  readonly host?: ts.CompilerHost | undefined;
  readonly config: KilnTransformerConfig;
  /** Only these files (a rebuild after an edit); default: every file of the program. */
  readonly only?: ReadonlySet<string> | undefined;
  /** The checker the analysis asks (transformer/checker/); default: the program's own (TypeScript 6). */
  readonly checker?: KilnChecker;
  /** How binders are written; unchecked binders need the emit phase's `after` transformer too (see {@link hookEmit}). */
  readonly binderOptions?: BinderOptions;
  /**
   * The last compile of an earlier version (a rebuild after an edit, with `only`): each file whose
   * text has not changed since keeps the syntax tree that compile gave it (rewritten, when it was),
   * and that program is the new one's `oldProgram`, so TypeScript reuses the program's structure
   * and module resolutions instead of building them again for every file.
   */
  readonly previous?: PreviousCompile | undefined;
}

/** The files Kiln rewrites: their new text, the original by new text, what the emit phase needs, and the binders it checks apart. */
interface Rewrites {
  readonly texts: Map<string, string>;
  readonly originalTexts: Map<string, string>;
  readonly plans: Map<string, EmitPlan>;
  readonly unchecked: Map<string, ReadonlySet<string>>;
}

/**
 * Kiln's whole build step on a type-checked program, shared by every way of building (tspc's
 * program transformer, the esbuild/Vite plugins, `@kiln/core/register`): analyse the program
 * (find + analyse), write each file's binders (emit), rewrite the files that hold Kiln
 * decorators, and build the program the checker and emitter see. Nothing is hooked into it.
 */
export function compileProgram(request: CompileRequest): CompiledProgram {
  const { ts: tsi, program, config, only } = request;
  const tk: Toolkit = { ts: tsi, program, checker: request.checker ?? program.getTypeChecker() };
  const model = analyseProgram(tk, only);
  const responses = analyseResponses(tk, config.typedResponses, only);
  const envCalls = analyseEnvCalls(tk, only);
  const sockets = analyseSockets(tk, only);
  const rewrites = rewriteFiles(tk, config, { model, responses, envCalls, sockets }, request.binderOptions ?? {});
  const baseHost: ts.CompilerHost = request.host ?? tsi.createCompilerHost(program.getCompilerOptions());
  let next = rewrites.texts.size > 0 ? rewrittenProgram(request, baseHost, rewrites) : program;

  // The OpenAPI document is written from the same analysis (transformer/openapi/), when asked for.
  // It reads return types through the checker of the program that is type-checked next (positions
  // are the same in both), so the inference it needs is done once, not once more for the document.
  // A rebuild of some files (`only`) has a partial model: the document is written by full builds.
  const errors = errorsFormatOf(tsi, config.errors);
  const openApi =
    config.openapi === undefined || only !== undefined
      ? undefined
      : generateOpenApi(
          { ts: tsi, program: next, checker: next.getTypeChecker() },
          model,
          config.openapi,
          projectDirOf(program),
          errors.format,
        );

  // The typed client is written by every build, a rebuild of some files included (from a whole
  // analysis then): a client older than the routes it calls cannot be left behind.
  let clientDiagnostics: readonly ts.Diagnostic[] = [];
  if (config.client !== undefined) {
    const client =
      only === undefined
        ? generateClient(
            { ts: tsi, program: next, checker: next.getTypeChecker() },
            model,
            config.client,
            projectDirOf(program),
            openApi?.document,
            errors.format,
          )
        : generateClient(
            { ts: tsi, program, checker: program.getTypeChecker() },
            analyseProgram(tk),
            config.client,
            projectDirOf(program),
            undefined,
            errors.format,
          );
    clientDiagnostics = client.diagnostics;
    next = withFileText(tsi, next, baseHost, client.outputFile, client.text);
  }

  const disabled = new Set(config.disable ?? []);
  const kilnErrors = [
    ...model.diagnostics,
    ...responses.diagnostics,
    ...sockets.diagnostics,
    ...envCalls.diagnostics,
    ...errors.diagnostics,
    ...(openApi?.diagnostics ?? []),
    ...clientDiagnostics,
  ].filter((d) => !disabled.has(kilnCodeOf(d)));
  const kilnWarnings = responses.warnings.filter((d) => !disabled.has(kilnCodeOf(d)));
  const { texts, originalTexts, plans } = rewrites;
  return { program: next, model, plans, texts, originalTexts, kilnErrors, kilnWarnings };
}

/** What the analysis found that generated code is written for. */
interface Analysis {
  readonly model: ProgramModel;
  readonly responses: ResponsesModel;
  readonly envCalls: EnvModel;
  readonly sockets: SocketsModel;
}

/** The text the checker sees for each file with Kiln decorators, serialised responses or `env<T>()` calls: its generated code appended. */
function rewriteFiles(tk: Toolkit, config: KilnTransformerConfig, analysis: Analysis, binderOptions: BinderOptions): Rewrites {
  const { model, responses, envCalls, sockets } = analysis;
  const { ts: tsi, program } = tk;
  const options = program.getCompilerOptions();
  const bindingModule = config.bindingModule ?? '@kiln/core/binding';
  const rewrites: Rewrites = { texts: new Map(), originalTexts: new Map(), plans: new Map(), unchecked: new Map() };
  for (const fileName of new Set([...model.files.keys(), ...responses.files.keys(), ...envCalls.files.keys(), ...sockets.files.keys()])) {
    const fileModel = model.files.get(fileName) ?? emptyFileModel(fileName);
    const original = program.getSourceFile(fileName)!;
    const commonJs =
      original.impliedNodeFormat === undefined
        ? (options.module ?? tsi.ModuleKind.CommonJS) === tsi.ModuleKind.CommonJS
        : original.impliedNodeFormat === tsi.ModuleKind.CommonJS;
    const generated = emitFileCode(fileModel, bindingModule, commonJs, binderOptions);
    const fileResponses = responses.files.get(fileName);
    const serialized =
      fileResponses === undefined ? undefined : emitSerializers(fileResponses, responses, generated.validatorSites.size > 0);
    const fileSockets = sockets.files.get(fileName);
    const typiaDeclared = generated.validatorSites.size > 0 || (responses.assert && serialized !== undefined);
    const socketCode = fileSockets === undefined ? undefined : emitSockets(fileSockets, typiaDeclared);
    const fileEnvCalls = envCalls.files.get(fileName);
    const envCode = fileEnvCalls === undefined ? undefined : emitEnvPlans(fileEnvCalls, bindingModule, commonJs);
    const text = rewriteSource(
      original.text,
      fileModel.decoratorRanges,
      generated.text + (serialized?.text ?? '') + (socketCode?.text ?? '') + (envCode?.text ?? ''),
    );
    rewrites.texts.set(fileName, text);
    rewrites.originalTexts.set(text, original.text);
    rewrites.unchecked.set(fileName, generated.uncheckedBinders);
    rewrites.plans.set(fileName, {
      generatedStart: original.text.length,
      binders: generated.binders,
      localReferences: new Set(fileModel.localReferences),
      validatorSites: new Map([...generated.validatorSites, ...(serialized?.sites ?? []), ...(socketCode?.sites ?? [])]),
      serializers: serialized?.serializers,
      sockets: socketCode?.codecs,
      dependencyLists: generated.dependencyLists,
      envCalls: envCode?.calls,
    });
  }
  return rewrites;
}

/** The program the checker and emitter see: the rewritten files parsed, every other file as it was (or as the previous compile kept it). */
function rewrittenProgram(request: CompileRequest, baseHost: ts.CompilerHost, rewrites: Rewrites): ts.Program {
  const { ts: tsi, program, previous } = request;
  const { texts, plans, unchecked } = rewrites;
  const parsed = new Map<string, ts.SourceFile>();
  // A file unchanged since the previous compile: the tree that compile gave it. A declaration file
  // only generated code imports (the binding module's) is not in `program`: read once, like packages.
  const kept = (fileName: string, original: ts.SourceFile | undefined): ts.SourceFile | undefined => {
    if (previous === undefined) return undefined;
    if (original === undefined) {
      const declaration = previous.compiled.program.getSourceFile(fileName);
      return declaration?.isDeclarationFile === true && previous.source.getSourceFile(fileName) === undefined ? declaration : undefined;
    }
    return previous.source.getSourceFile(fileName) === original ? previous.compiled.program.getSourceFile(fileName) : undefined;
  };
  const getSourceFile: ts.CompilerHost['getSourceFile'] = (fileName, languageVersionOrOptions, onError, shouldCreate) => {
    const text = texts.get(fileName);
    if (text === undefined) {
      const original = program.getSourceFile(fileName);
      return kept(fileName, original) ?? original ?? baseHost.getSourceFile(fileName, languageVersionOrOptions, onError, shouldCreate);
    }
    let file = parsed.get(fileName);
    if (file === undefined) {
      file = tsi.createSourceFile(fileName, text, languageVersionOrOptions, true);
      setAsideStatements(tsi, file, plans.get(fileName)!.generatedStart, unchecked.get(fileName)!);
      // Builder programs (incremental, watch) tell changed files apart by version: the generated text counts.
      (file as { version?: string }).version = createHash('sha256').update(text).digest('hex');
      parsed.set(fileName, file);
    }
    return file;
  };
  return tsi.createProgram({
    rootNames: program.getRootFileNames(),
    options: program.getCompilerOptions(),
    // Watch hosts also answer by path (and the program prefers that): both must see the rewritten text.
    host: {
      ...baseHost,
      getSourceFile,
      getSourceFileByPath:
        baseHost.getSourceFileByPath === undefined
          ? undefined
          : (fileName, path, languageVersionOrOptions, onError, shouldCreate) =>
              texts.has(fileName) || previous !== undefined
                ? getSourceFile(fileName, languageVersionOrOptions, onError, shouldCreate)
                : baseHost.getSourceFileByPath!(fileName, path, languageVersionOrOptions, onError, shouldCreate),
    },
    oldProgram: previous?.compiled.program ?? program,
    projectReferences: program.getProjectReferences(),
    configFileParsingDiagnostics: program.getConfigFileParsingDiagnostics(),
  });
}

/**
 * Phase 1 of the plugin (ts-patch `transformProgram: true`): compile the program (see
 * {@link compileProgram}) and hook the KILN diagnostics and phase 2 (the emit-time transformer)
 * into the program tspc checks and emits.
 */
export function transformProgram(
  program: ts.Program,
  host: ts.CompilerHost | undefined,
  config: KilnTransformerConfig,
  extras: { ts: typeof ts } | undefined,
): ts.Program {
  // Loaded as a source transformer (no `transformProgram`), ts-patch calls this with other arguments.
  if (extras?.ts === undefined || typeof program?.getTypeChecker !== 'function') {
    throw new Error(
      '@kiln/core/transformer is a program transformer: configure it as { "transform": "@kiln/core/transformer", "transformProgram": true }',
    );
  }
  const tsi = extras.ts;
  // Binders as plain JavaScript, printed unchecked after TypeScript's transforms: they hold `async`
  // functions, which need an ES2017 target to be printed as written.
  const target = program.getCompilerOptions().target;
  const uncheckedBinders = target !== undefined && target >= tsi.ScriptTarget.ES2017;
  const compiled = compileProgram({ ts: tsi, program, host, config, binderOptions: { uncheckedBinders } });
  printWarnings(tsi, program, compiled.kilnWarnings);
  const hooks: HookOptions = {
    ts: tsi,
    original: program,
    plans: compiled.plans,
    kilnErrors: compiled.kilnErrors,
    originalTexts: compiled.originalTexts,
    fallbackWriteFile: (host ?? tsi.createCompilerHost(program.getCompilerOptions())).writeFile,
  };
  hookDiagnostics(compiled.program, hooks);
  hookEmit(compiled.program, hooks);
  return compiled.program;
}

/**
 * KILN warnings go to stderr in tspc's own format (`app.ts(8,3): warning TS9152: KILN152: ...`):
 * a warning among the program's diagnostics would make tspc exit non-zero, failing the build.
 */
function printWarnings(tsi: typeof ts, program: ts.Program, warnings: readonly ts.Diagnostic[]): void {
  if (warnings.length === 0) return;
  const host: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (fileName) => fileName,
    getCurrentDirectory: () => program.getCurrentDirectory(),
    getNewLine: () => '\n',
  };
  process.stderr.write(tsi.formatDiagnostics(warnings, host));
}

/**
 * The program with the client this build just wrote, when the program reads it: code of the
 * project that calls the client is checked against the routes of this build, never an earlier
 * client. A program that holds the file gets its new text; one that imports it before it existed
 * (the first build) is made again, so that the import resolves to the file now written. Every
 * other file is the program's own.
 */
function withFileText(
  tsi: typeof ts,
  program: ts.Program,
  host: ts.CompilerHost,
  fileName: string | undefined,
  text: string | undefined,
): ts.Program {
  if (fileName === undefined || text === undefined) return program;
  const current = program.getSourceFile(fileName);
  if (current?.text === text) return program;
  if (current === undefined) {
    // An import of it names it after a slash: './client.js', '../src/client'.
    const moduleName = fileName.replace(/^.*[\\/]/, '').replace(/\.[cm]?ts$/, '');
    const specifier = new RegExp(`/${moduleName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:\\.[cm]?[jt]s)?['"]`);
    const imported = program.getSourceFiles().some((file) => !file.isDeclarationFile && specifier.test(file.text));
    if (!imported && !namedByConfig(tsi, program, fileName)) return program;
  }
  let written: ts.SourceFile | undefined;
  const getSourceFile: ts.CompilerHost['getSourceFile'] = (name, languageVersionOrOptions, onError, shouldCreate) => {
    if (name !== fileName) return program.getSourceFile(name) ?? host.getSourceFile(name, languageVersionOrOptions, onError, shouldCreate);
    written ??= tsi.createSourceFile(name, text, current?.languageVersion ?? languageVersionOrOptions, true);
    return written;
  };
  const roots = program.getRootFileNames();
  return tsi.createProgram({
    // The first build emits the client as every later one does when the tsconfig's include names it.
    rootNames: current === undefined && namedByConfig(tsi, program, fileName) ? [...roots, fileName] : roots,
    options: program.getCompilerOptions(),
    // tsc's host caches what exists: the file written since is there, with its text.
    host: {
      ...host,
      getSourceFile,
      getSourceFileByPath: undefined,
      fileExists: (name) => name === fileName || host.fileExists(name),
      readFile: (name) => (name === fileName ? text : host.readFile(name)),
    },
    // A program that did not hold the file keeps its failed resolution of the import when made
    // from itself: made anew (from the same parsed files), the import resolves.
    oldProgram: current === undefined ? undefined : program,
    projectReferences: program.getProjectReferences(),
    configFileParsingDiagnostics: program.getConfigFileParsingDiagnostics(),
  });
}

/** The folder of the tsconfig.json (paths in the plugin options are relative to it). */
function projectDirOf(program: ts.Program): string {
  const configFile = program.getCompilerOptions()['configFilePath'];
  return typeof configFile === 'string' ? configFile.replace(/[\\/][^\\/]*$/, '') : program.getCurrentDirectory();
}

/** The model of a file whose only Kiln code is typed responses: no binders, nothing blanked. */
function emptyFileModel(fileName: string): FileModel {
  return { fileName, displayName: fileName, methods: [], decoratorRanges: [], references: [], localReferences: [], injections: [] };
}

/**
 * Whether the program's tsconfig (its `files` and `include`) names the file, now that it is written:
 * the next build would compile it as one of its own, so this one does too.
 */
function namedByConfig(tsi: typeof ts, program: ts.Program, fileName: string): boolean {
  const configPath = program.getCompilerOptions().configFilePath;
  if (typeof configPath !== 'string') return false;
  const host = { ...tsi.sys, onUnRecoverableConfigFileDiagnostic: () => {} };
  const parsed = tsi.getParsedCommandLineOfConfigFile(configPath, undefined, host);
  const wanted = tsi.sys.resolvePath(fileName);
  return parsed?.fileNames.some((name) => tsi.sys.resolvePath(name) === wanted) ?? false;
}
