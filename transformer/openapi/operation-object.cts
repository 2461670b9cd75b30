// One route's Operation Object: its names, its JSDoc, what it takes and what it answers.
import type * as ts from 'typescript';
import { diagnosticMessage } from '../diagnostics/diagnostic-codes.cjs';
import { kilnDiagnostic } from '../diagnostics/kiln-diagnostic.cjs';
import type { ProgramToolkit } from '../toolkit.cjs';
import { type OperationNames, operationIdOf } from './operation-naming.cjs';
import { operationResponses } from './operation-responses.cjs';
import type { OperationSource } from './operation-sources.cjs';
import type { OperationObject } from './openapi-types.cjs';
import { type InputMethod, requestInputs } from './request-inputs.cjs';
import { type DeclaredError, readDocComment } from './route-doc-comment.cjs';
import type { ErrorsFormat } from './response-objects.cjs';
import type { TypeSchemas } from './type-schemas.cjs';

export interface OperationObjectOptions {
  readonly tk: ProgramToolkit;
  readonly schemas: TypeSchemas;
  /** The operationIds and tags of the routes written before this one. */
  readonly names: OperationNames;
  /** How error answers are written: Kiln's error body or problem details. */
  readonly errors: ErrorsFormat;
  readonly diagnostics: ts.Diagnostic[];
}

/** The route's operationId, unless its path is unknown at build time or another route took the id (both reported). */
function claimOperationId(source: OperationSource, operationId: string, { tk, names, diagnostics }: OperationObjectOptions): boolean {
  const where = `${source.className}.${source.methodName}`;
  if (source.path === undefined) {
    diagnostics.push(kilnDiagnostic(tk.ts, source.decorator, diagnosticMessage('openApiPathUnknown', 'pathUnknown', source.method, where)));
    return false;
  }
  const first = names.takenBy(operationId);
  if (first === undefined) return true;
  const firstFile = first.declaration.getSourceFile().fileName.replace(/^.*[\\/]/, '');
  diagnostics.push(
    kilnDiagnostic(
      tk.ts,
      source.declaration.name,
      diagnosticMessage('duplicateOperationId', 'taken', operationId, source.method, source.path, first.method, first.path!, firstFile),
    ),
  );
  return false;
}

/**
 * The Operation Object of one route, or `undefined` when it cannot be in the document. Its
 * parameters are the handler's, then those of the class middlewares guarding it (e.g. an API-key
 * header); its declared errors the route's own `@throws`, its controller's (every route of it),
 * its middlewares'.
 */
export function operationObject(source: OperationSource, options: OperationObjectOptions): OperationObject | undefined {
  const { tk } = options;
  const where = `${source.className}.${source.methodName}`;
  const doc = readDocComment(tk.ts, source.declaration);
  const operationId = operationIdOf(source, doc);
  if (!claimOperationId(source, operationId, options)) return undefined;
  const tag = options.names.take(operationId, source, tk.ts);

  const declaredErrors: DeclaredError[] = [...doc.throws, ...readDocComment(tk.ts, source.controller).throws];
  const declaredResponses = [...doc.responses];
  const methods: InputMethod[] = [{ declaration: source.declaration, model: source.model, descriptions: doc.parameters }];
  for (const middleware of source.middlewares) {
    const useDoc = readDocComment(tk.ts, middleware.use);
    declaredResponses.push(...useDoc.responses);
    declaredErrors.push(...useDoc.throws);
    methods.push({ declaration: middleware.use, model: middleware.model, descriptions: useDoc.parameters });
  }
  const inputs = requestInputs({ ...options, where, methods });
  const responses = operationResponses({ ...options, source, where, produces: doc.produces, declaredErrors, declaredResponses, inputs });
  // Written in reading order: what it is, what it takes, what it answers.
  return {
    operationId,
    tags: [tag],
    summary: doc.summary,
    description: doc.description,
    deprecated: doc.deprecated ? true : undefined,
    parameters: inputs.parameters,
    requestBody: inputs.requestBody,
    responses,
  };
}
