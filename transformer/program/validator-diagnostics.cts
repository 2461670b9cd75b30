import type * as ts from 'typescript';
import type { EmitPlan } from '../emit/emit-transformer.cjs';

/**
 * The generated line of a validator (`const kiln$validate_0 = kiln$typia.createValidateEquals<...>();`)
 * or of a typed-response serialiser (`kiln$typia.createAssert<...>()` inside `const kiln$serialize_0 = ...` under 'assert').
 */
const validatorLine = /const (kiln\$(?:validate|serialize|socket)_\d+) = /;

/**
 * typia reports a body type it cannot validate (`number & tags.Format<'email'>`) at emit time, on
 * the `createValidateEquals` call in the generated code — past the end of the user's file. Such a
 * diagnostic is moved onto the parameter's declared type in the original file, so tspc prints the
 * line that holds the mistake. Diagnostics are changed in place: every channel that reports them
 * shows the same position.
 */
export function relocateValidatorDiagnostics(
  diagnostics: readonly ts.Diagnostic[],
  plans: ReadonlyMap<string, EmitPlan>,
  original: ts.Program,
): void {
  for (const diagnostic of diagnostics) {
    const file = diagnostic.file;
    const plan = file === undefined ? undefined : plans.get(file.fileName);
    if (
      file === undefined ||
      plan?.validatorSites === undefined ||
      diagnostic.start === undefined ||
      diagnostic.start < plan.generatedStart
    )
      continue;
    const lineStart = file.text.lastIndexOf('\n', diagnostic.start) + 1;
    const name = validatorLine.exec(file.text.slice(lineStart, diagnostic.start + 1))?.[1];
    const site = name === undefined ? undefined : plan.validatorSites.get(name);
    const originalFile = original.getSourceFile(file.fileName);
    if (site === undefined || originalFile === undefined) continue;
    diagnostic.file = originalFile;
    diagnostic.start = site.start;
    diagnostic.length = site.end - site.start;
  }
}
