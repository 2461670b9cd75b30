import { createHash } from 'node:crypto';
import type * as ts from 'typescript';
import { analyseProgram } from './analyse-program.cjs';
import { emitFileCode } from './binder-emitter.cjs';
import { emitTransformer, type EmitPlan } from './emit-transformer.cjs';
import { kilnCodeOf, kilnDiagnostic } from './kiln-diagnostic.cjs';
import { restoreSourcesContent } from './source-map-content.cjs';
import { rewriteSource } from './source-rewriter.cjs';
import type { Toolkit } from './toolkit.cjs';

/** Options of the plugin entry in tsconfig.json. */
export interface KilnTransformerConfig {
  /** The module generated binders import their helpers from. Default `'kiln/binding'`. */
  readonly bindingModule?: string;
  /**
   * KILN codes not to report, e.g. `["KILN105"]` in a test project that builds several apps which
   * declare the same route. The runtime's start-up checks still apply.
   */
  readonly disable?: readonly string[];
}

// Unused-declaration diagnostics: generated code references nothing a user could remove.
const unusedCodes = new Set([6133, 6138, 6192, 6196, 6198, 6199, 6205]);

/**
 * Phase 1 of the plugin (ts-patch `transformProgram: true`): analyse the program, rewrite each file
 * that holds Kiln parameter decorators (decorators blanked, binders appended), build the program
 * the checker and emitter see, report KILN diagnostics through it, and hook phase 2 (the emit-time
 * transformer) into its `emit`.
 */
export function transformProgram(
  program: ts.Program,
  host: ts.CompilerHost | undefined,
  config: KilnTransformerConfig,
  extras: { ts: typeof ts } | undefined,
): ts.Program {
  // Loaded as a source transformer (no `transformProgram`), ts-patch calls this with other arguments.
  if (extras?.ts === undefined || typeof program?.getTypeChecker !== 'function') {
    throw new Error('kiln/transformer is a program transformer: configure it as { "transform": "kiln/transformer", "transformProgram": true }');
  }
  const tsi = extras.ts;
  const tk: Toolkit = { ts: tsi, program, checker: program.getTypeChecker() };
  const model = analyseProgram(tk);
  const options = program.getCompilerOptions();
  const bindingModule = config.bindingModule ?? 'kiln/binding';

  const rewritten = new Map<string, ts.SourceFile>();
  const originalTexts = new Map<string, string>();
  const plans = new Map<string, EmitPlan>();
  for (const [fileName, fileModel] of model.files) {
    const original = program.getSourceFile(fileName)!;
    const commonJs = original.impliedNodeFormat === undefined
      ? (options.module ?? tsi.ModuleKind.CommonJS) === tsi.ModuleKind.CommonJS
      : original.impliedNodeFormat === tsi.ModuleKind.CommonJS;
    const generated = emitFileCode(fileModel, bindingModule, commonJs);
    const text = rewriteSource(original.text, fileModel.decoratorRanges, generated.text);
    const file = tsi.createSourceFile(fileName, text, {
      languageVersion: original.languageVersion,
      impliedNodeFormat: original.impliedNodeFormat,
      setExternalModuleIndicator: (options as { setExternalModuleIndicator?: (f: ts.SourceFile) => void }).setExternalModuleIndicator,
    }, true);
    // Builder programs (incremental, watch) tell changed files apart by version: the generated text counts.
    (file as { version?: string }).version = createHash('sha256').update(text).digest('hex');
    rewritten.set(fileName, file);
    originalTexts.set(text, original.text);
    plans.set(fileName, { generatedStart: original.text.length, binders: generated.binders });
  }

  let next = program;
  const baseHost = host ?? tsi.createCompilerHost(options);
  if (rewritten.size > 0) {
    const newHost: ts.CompilerHost = {
      ...baseHost,
      getSourceFile: (fileName, languageVersion, onError, shouldCreate) =>
        rewritten.get(fileName) ?? program.getSourceFile(fileName) ?? baseHost.getSourceFile(fileName, languageVersion, onError, shouldCreate),
    };
    next = tsi.createProgram({
      rootNames: program.getRootFileNames(),
      options,
      host: newHost,
      oldProgram: program,
      projectReferences: program.getProjectReferences(),
      configFileParsingDiagnostics: program.getConfigFileParsingDiagnostics(),
    });
  }

  const disabled = new Set(config.disable ?? []);
  const kilnErrors = model.diagnostics.filter((d) => !disabled.has(kilnCodeOf(d)));
  const semantic = next.getSemanticDiagnostics.bind(next);
  next.getSemanticDiagnostics = (sourceFile, cancellationToken) => {
    const found: ts.Diagnostic[] = [];
    for (const diagnostic of semantic(sourceFile, cancellationToken)) {
      const plan = diagnostic.file === undefined ? undefined : plans.get(diagnostic.file.fileName);
      if (plan === undefined || diagnostic.start === undefined || diagnostic.start < plan.generatedStart) {
        found.push(diagnostic);
      } else if (!unusedCodes.has(diagnostic.code)) {
        // An error inside generated code is the transformer's fault: say so rather than point past the file's end.
        const original = program.getSourceFile(diagnostic.file!.fileName)!;
        const message = tsi.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
        found.push(kilnDiagnostic(tsi, 'generatedCodeError', original.statements[original.statements.length - 1] ?? original, message));
      }
    }
    for (const diagnostic of kilnErrors) {
      if (sourceFile === undefined || diagnostic.file?.fileName === sourceFile.fileName) found.push(diagnostic);
    }
    return found;
  };

  const emit = next.emit.bind(next);
  const phaseTwo = emitTransformer(tsi, plans);
  next.emit = (targetSourceFile, writeFile, cancellationToken, emitOnlyDts, customTransformers, ...rest: unknown[]) => {
    if (options.noEmitOnError && kilnErrors.length > 0) return { emitSkipped: true, diagnostics: [] };
    const transformers: ts.CustomTransformers = { ...customTransformers, before: [phaseTwo, ...(customTransformers?.before ?? [])] };
    const write = rewritten.size > 0 && (options.inlineSources === true) ? restoreSourcesContent(writeFile ?? baseHost.writeFile, originalTexts) : writeFile;
    return (emit as (...args: unknown[]) => ts.EmitResult)(targetSourceFile, write, cancellationToken, emitOnlyDts, transformers, ...rest);
  };
  return next;
}
