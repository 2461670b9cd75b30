import type * as ts from 'typescript';
import { emitTransformer, type EmitPlan } from '../emit/emit-transformer.cjs';
import { diagnosticMessage } from '../diagnostics/diagnostic-codes.cjs';
import { kilnDiagnostic } from '../diagnostics/kiln-diagnostic.cjs';
import { restoreSourcesContent } from '../emit/source-map-content.cjs';
import { relocateValidatorDiagnostics } from './validator-diagnostics.cjs';
import { uncheckedStatementsTransformer } from '../emit/unchecked-statements.cjs';

// Unused-declaration diagnostics: generated code declares nothing a user could remove.
const unusedCodes = new Set([6133, 6138, 6192, 6196, 6198, 6199, 6205]);

export interface HookOptions {
  readonly ts: typeof ts;
  /** The user's program: KILN190 points into its files. */
  readonly original: ts.Program;
  readonly plans: ReadonlyMap<string, EmitPlan>;
  /** The KILN errors to report (already filtered by `disable`). */
  readonly kilnErrors: readonly ts.Diagnostic[];
  /** Original text by rewritten text, for source maps that embed sources. */
  readonly originalTexts: ReadonlyMap<string, string>;
  readonly fallbackWriteFile: ts.WriteFileCallback;
}

/**
 * Adds the KILN diagnostics to what the program reports (tspc prints them and exits non-zero),
 * and turns an error inside generated code into KILN190 at the file rather than past its end.
 * A plain build asks `getSemanticDiagnostics`; builder programs (incremental, watch) ask the
 * per-file `getBindAndCheckDiagnostics` (not in the public typings): both are hooked.
 */
export function hookDiagnostics(program: ts.Program, hooks: HookOptions): void {
  const adjust = (diagnostics: readonly ts.Diagnostic[], sourceFile: ts.SourceFile | undefined): ts.Diagnostic[] => {
    const found: ts.Diagnostic[] = [];
    for (const diagnostic of diagnostics) {
      const plan = diagnostic.file === undefined ? undefined : hooks.plans.get(diagnostic.file.fileName);
      if (plan === undefined || diagnostic.start === undefined || diagnostic.start < plan.generatedStart) {
        if (plan === undefined || !isUnusedLocalReference(diagnostic, plan)) found.push(diagnostic);
      } else if (!unusedCodes.has(diagnostic.code)) {
        const file = hooks.original.getSourceFile(diagnostic.file!.fileName)!;
        const message = hooks.ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
        found.push(
          kilnDiagnostic(
            hooks.ts,
            file.statements[file.statements.length - 1] ?? file,
            diagnosticMessage('generatedCodeError', 'generatedCode', message),
          ),
        );
      }
    }
    for (const diagnostic of hooks.kilnErrors) {
      if (isOptionsDiagnostic(diagnostic)) continue;
      if (sourceFile === undefined || diagnostic.file?.fileName === sourceFile.fileName) found.push(diagnostic);
    }
    return found;
  };

  // Errors about tsconfig.json (KILN130) are options diagnostics: every kind of program reports those once.
  const optionsDiagnostics = program.getOptionsDiagnostics.bind(program);
  program.getOptionsDiagnostics = (cancellationToken) => [
    ...optionsDiagnostics(cancellationToken),
    ...hooks.kilnErrors.filter(isOptionsDiagnostic),
  ];

  const semantic = program.getSemanticDiagnostics.bind(program);
  program.getSemanticDiagnostics = (sourceFile, cancellationToken) => adjust(semantic(sourceFile, cancellationToken), sourceFile);

  type BindAndCheck = (sourceFile: ts.SourceFile, cancellationToken?: ts.CancellationToken) => readonly ts.Diagnostic[];
  const internal = program as ts.Program & { getBindAndCheckDiagnostics?: BindAndCheck };
  const bindAndCheck = internal.getBindAndCheckDiagnostics?.bind(program);
  if (bindAndCheck !== undefined) {
    internal.getBindAndCheckDiagnostics = (sourceFile, cancellationToken) =>
      adjust(bindAndCheck(sourceFile, cancellationToken), sourceFile);
  }
}

/** A KILN error about the compiler options: on tsconfig.json, or on no file. */
function isOptionsDiagnostic(diagnostic: ts.Diagnostic): boolean {
  return diagnostic.file === undefined || /\.json$/i.test(diagnostic.file.fileName);
}

/**
 * A declaration inside a function that only a blanked decorator used (`const Ip = ...` next to a
 * class declared in a test) reads as unused to the checker; the generated code cannot reference
 * it from module scope, so its unused-declaration diagnostic is dropped instead.
 */
function isUnusedLocalReference(diagnostic: ts.Diagnostic, plan: EmitPlan): boolean {
  if (!unusedCodes.has(diagnostic.code) || diagnostic.start === undefined || diagnostic.length === undefined) return false;
  const name = diagnostic.file!.text.slice(diagnostic.start, diagnostic.start + diagnostic.length);
  return plan.localReferences.has(name);
}

/** Runs phase 2 (the emit-time transformer) on every emit; honours `noEmitOnError` for KILN errors. */
export function hookEmit(program: ts.Program, hooks: HookOptions): void {
  const emit = program.emit.bind(program) as (...args: unknown[]) => ts.EmitResult;
  const options = program.getCompilerOptions();
  const phaseTwo = emitTransformer(hooks.ts, hooks.plans);
  const unchecked = uncheckedStatementsTransformer(hooks.ts);
  program.emit = (targetSourceFile, writeFile, cancellationToken, emitOnlyDts, customTransformers, ...rest: unknown[]) => {
    if (options.noEmitOnError && hooks.kilnErrors.length > 0) return { emitSkipped: true, diagnostics: [] };
    const transformers: ts.CustomTransformers = {
      ...customTransformers,
      before: [phaseTwo, ...(customTransformers?.before ?? [])],
      after: [...(customTransformers?.after ?? []), unchecked],
    };
    const write =
      hooks.plans.size > 0 && options.inlineSources === true
        ? restoreSourcesContent(writeFile ?? hooks.fallbackWriteFile, hooks.originalTexts)
        : writeFile;
    const result = emit(targetSourceFile, write, cancellationToken, emitOnlyDts, transformers, ...rest);
    relocateValidatorDiagnostics(result.diagnostics, hooks.plans, hooks.original);
    return result;
  };
}
