import type * as ts from 'typescript';
import { codeLabel, diagnosticCodes, type DiagnosticKey } from './diagnostic-codes.cjs';

/** The offset at which a code's number is reported, so editors and tspc print e.g. `TS9101` next to `KILN101`. */
const codeOffset = 9000;

/**
 * A Kiln build error on a node (or on no file), as a `ts.Diagnostic` that tspc prints with file:line:column
 * (`error TS9101: KILN101 ...`) and editors show with source `kiln`.
 */
export function kilnDiagnostic(
  tsi: typeof ts,
  key: DiagnosticKey,
  node: ts.Node | undefined,
  message: string,
  category: ts.DiagnosticCategory = tsi.DiagnosticCategory.Error,
): ts.Diagnostic {
  const file = node?.getSourceFile();
  const start = node?.getStart(file);
  return {
    file,
    start,
    length: node === undefined ? undefined : node.getEnd() - start!,
    category,
    code: codeOffset + diagnosticCodes[key].code,
    source: 'kiln',
    messageText: `${codeLabel(key)}: ${message}`,
  };
}

/** `KILN101` for a Kiln diagnostic. */
export function kilnCodeOf(diagnostic: ts.Diagnostic): string {
  return `KILN${diagnostic.code - codeOffset}`;
}

/** Whether a diagnostic is one of Kiln's. */
export function isKilnDiagnostic(diagnostic: ts.Diagnostic): boolean {
  return diagnostic.source === 'kiln';
}

/** A Kiln build error about the project rather than a place in a file (an option, a file it writes). */
export function kilnGlobalDiagnostic(tsi: typeof ts, key: DiagnosticKey, message: string): ts.Diagnostic {
  return {
    file: undefined,
    start: undefined,
    length: undefined,
    category: tsi.DiagnosticCategory.Error,
    code: codeOffset + diagnosticCodes[key].code,
    source: 'kiln',
    messageText: `${codeLabel(key)}: ${message}`,
  };
}
