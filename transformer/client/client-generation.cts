// The `client` option: the typed client module written by every build path from the same
// analysis as the OpenAPI document (the document is built once when both options are on).
import { resolve } from 'node:path';
import type * as ts from 'typescript';
import type { ProgramModel } from '../analyse/analyse-program.cjs';
import { type DiagnosticMessage, diagnosticMessage } from '../diagnostics/diagnostic-codes.cjs';
import { kilnGlobalDiagnostic } from '../diagnostics/kiln-diagnostic.cjs';
import { buildOpenApiDocument, type OpenApiDocument } from '../openapi/openapi-document.cjs';
import { packageInfo } from '../openapi/package-info.cjs';
import { loadTypiaCore } from '../openapi/type-schemas.cjs';
import type { ErrorsFormat } from '../openapi/response-objects.cjs';
import type { ProgramToolkit } from '../toolkit.cjs';
import { writeWhenChanged } from '../write-when-changed.cjs';
import { writeClientModule } from './client-module.cjs';

/** The `client` option of the plugin entry (tsconfig.json, the bundler plugins, `@kiln/core/register`). */
export interface TypedClientOptions {
  /** Where the client module is written, relative to the tsconfig.json: `"src/client.ts"`. */
  readonly output: string;
  /** The module the client imports its runtime from. Default `'@kiln/core/client'`. */
  readonly runtimeModule?: string;
}

export interface ClientGeneration {
  /** The file written, and its text. */
  readonly outputFile: string | undefined;
  readonly text: string | undefined;
  readonly diagnostics: readonly ts.Diagnostic[];
}

function refused(tk: ProgramToolkit, message: DiagnosticMessage): ClientGeneration {
  return { outputFile: undefined, text: undefined, diagnostics: [kilnGlobalDiagnostic(tk.ts, message)] };
}

/**
 * Writes the typed client of the program to `options.output` (relative to `projectDir`). `document`
 * is the OpenAPI document this build already made, if it made one; else it is made here, its
 * errors in the `errors` format.
 */
export function generateClient(
  tk: ProgramToolkit,
  model: ProgramModel,
  options: unknown,
  projectDir: string,
  document?: OpenApiDocument,
  errors: ErrorsFormat = 'json',
): ClientGeneration {
  const given = options as Partial<TypedClientOptions> | null;
  if (typeof given !== 'object' || given === null || typeof given.output !== 'string' || !/\.[cm]?ts$/.test(given.output)) {
    return refused(tk, diagnosticMessage('clientOptionInvalid', 'noOutput'));
  }
  if (given.runtimeModule !== undefined && (typeof given.runtimeModule !== 'string' || given.runtimeModule === '')) {
    return refused(tk, diagnosticMessage('clientOptionInvalid', 'runtimeModule'));
  }
  const diagnostics: ts.Diagnostic[] = [];
  if (document === undefined) {
    const typia = loadTypiaCore(projectDir);
    if (typia === undefined) return refused(tk, diagnosticMessage('clientOptionInvalid', 'noTypia'));
    const built = buildOpenApiDocument({ tk, program: model, typia, head: { info: packageInfo(projectDir) }, errors });
    document = built.document;
    diagnostics.push(...built.diagnostics);
  }
  const { text, problems } = writeClientModule(document, given.runtimeModule);
  for (const problem of problems) diagnostics.push(kilnGlobalDiagnostic(tk.ts, problem.message));
  const outputFile = resolve(projectDir, given.output);
  try {
    writeWhenChanged(outputFile, text);
  } catch (error) {
    diagnostics.push(
      kilnGlobalDiagnostic(tk.ts, diagnosticMessage('clientNotWritten', 'writeFailed', outputFile, (error as Error).message)),
    );
  }
  return { outputFile, text, diagnostics };
}
