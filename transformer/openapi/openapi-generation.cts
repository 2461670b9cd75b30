// The one entry of OpenAPI generation, called by every build path (the tspc program transformer
// today, the bundler plugins through the same program analysis): checks the `openapi` option,
// builds the document from the program model and writes it where the option says.
import { resolve } from 'node:path';
import type * as ts from 'typescript';
import type { ProgramModel } from '../analyse/analyse-program.cjs';
import { type DiagnosticMessage, diagnosticMessage } from '../diagnostics/diagnostic-codes.cjs';
import { kilnGlobalDiagnostic } from '../diagnostics/kiln-diagnostic.cjs';
import type { ProgramToolkit } from '../toolkit.cjs';
import { writeWhenChanged } from '../write-when-changed.cjs';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi-document.cjs';
import { packageInfo } from './package-info.cjs';
import type { OpenApiInfo, OpenApiOptions } from './openapi-types.cjs';
import type { ErrorsFormat } from './response-objects.cjs';
import { loadTypiaCore } from './type-schemas.cjs';

export interface OpenApiGeneration {
  /** The document, unless the option or typia stopped it. */
  readonly document: OpenApiDocument | undefined;
  /** The file it was written to. */
  readonly outputFile: string | undefined;
  readonly diagnostics: readonly ts.Diagnostic[];
}

function problem(tk: ProgramToolkit, message: DiagnosticMessage): OpenApiGeneration {
  return { document: undefined, outputFile: undefined, diagnostics: [kilnGlobalDiagnostic(tk.ts, message)] };
}

/** `info` from the option, else from the project's package.json (`name`, `version`). */
function infoOf(options: OpenApiOptions, projectDir: string): OpenApiInfo {
  return options.info ?? packageInfo(projectDir);
}

/**
 * Generates the OpenAPI 3.1 document of the program and writes it to `options.output` (relative to
 * `projectDir`, the tsconfig's folder), its error answers in the `errors` format. The file is
 * rewritten only when its content changes.
 */
export function generateOpenApi(
  tk: ProgramToolkit,
  model: ProgramModel,
  options: unknown,
  projectDir: string,
  errors: ErrorsFormat = 'json',
): OpenApiGeneration {
  const given = options as Partial<OpenApiOptions> | null;
  if (typeof given !== 'object' || given === null || typeof given.output !== 'string' || given.output === '') {
    return problem(tk, diagnosticMessage('openApiOptionInvalid', 'noOutput'));
  }
  if (given.info !== undefined && (typeof given.info?.title !== 'string' || typeof given.info?.version !== 'string')) {
    return problem(tk, diagnosticMessage('openApiOptionInvalid', 'info'));
  }
  if (given.servers !== undefined && (!Array.isArray(given.servers) || given.servers.some((s) => typeof s?.url !== 'string'))) {
    return problem(tk, diagnosticMessage('openApiOptionInvalid', 'servers'));
  }
  const typia = loadTypiaCore(projectDir);
  if (typia === undefined) return problem(tk, diagnosticMessage('openApiOptionInvalid', 'noTypia'));

  const head = { info: infoOf(given as OpenApiOptions, projectDir), ...(given.servers === undefined ? {} : { servers: given.servers }) };
  const { document, diagnostics } = buildOpenApiDocument({ tk, program: model, typia, head, errors });
  const outputFile = resolve(projectDir, given.output);
  const text = `${JSON.stringify(document, null, 2)}\n`;
  try {
    writeWhenChanged(outputFile, text);
  } catch (error) {
    return {
      document,
      outputFile,
      diagnostics: [
        ...diagnostics,
        kilnGlobalDiagnostic(tk.ts, diagnosticMessage('openApiNotWritten', 'writeFailed', outputFile, (error as Error).message)),
      ],
    };
  }
  return { document, outputFile, diagnostics };
}
