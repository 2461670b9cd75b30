import type * as ts from 'typescript';
import { codeLabel, type DiagnosticCode, diagnosticCodes, type DiagnosticMessage } from './diagnostic-codes.cjs';

/** The offset at which a code's number is reported, so editors and tspc print e.g. `TS9101` next to `KILN101`. */
const codeOffset = 9000;

function categoryOf(tsi: typeof ts, message: DiagnosticMessage): ts.DiagnosticCategory {
  return (diagnosticCodes[message.key] as DiagnosticCode).warning ? tsi.DiagnosticCategory.Warning : tsi.DiagnosticCategory.Error;
}

/**
 * A Kiln build error (or warning) on a node (or on no file), as a `ts.Diagnostic` that tspc prints with
 * file:line:column (`error TS9101: KILN101 ...`) and editors show with source `kiln`.
 */
export function kilnDiagnostic(tsi: typeof ts, node: ts.Node | undefined, message: DiagnosticMessage): ts.Diagnostic {
  const file = node?.getSourceFile();
  const start = node?.getStart(file);
  return {
    file,
    start,
    length: node === undefined ? undefined : node.getEnd() - start!,
    category: categoryOf(tsi, message),
    code: codeOffset + diagnosticCodes[message.key].code,
    source: 'kiln',
    messageText: `${codeLabel(message.key)}: ${message.text}`,
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
export function kilnGlobalDiagnostic(tsi: typeof ts, message: DiagnosticMessage): ts.Diagnostic {
  return {
    file: undefined,
    start: undefined,
    length: undefined,
    category: categoryOf(tsi, message),
    code: codeOffset + diagnosticCodes[message.key].code,
    source: 'kiln',
    messageText: `${codeLabel(message.key)}: ${message.text}`,
  };
}
