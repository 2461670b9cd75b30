// What a route answers, for the document: the handler's own responses, those its JSDoc and its
// middlewares declare (`@throws`, `@response`), then the errors Kiln itself may answer with.
import type * as ts from 'typescript';
import { diagnosticMessage } from '../diagnostics/diagnostic-codes.cjs';
import { kilnDiagnostic } from '../diagnostics/kiln-diagnostic.cjs';
import type { ProgramToolkit } from '../toolkit.cjs';
import { declaredHttpError, declaredProblem } from './declared-error.cjs';
import { eventStreamResponses } from './event-stream-responses.cjs';
import type { OperationSource } from './operation-sources.cjs';
import type { JsonSchema, ResponseObject } from './openapi-types.cjs';
import type { RequestInputs } from './request-inputs.cjs';
import { type DeclaredProblem, declaredErrorResponse, type ErrorsFormat, errorResponse, successResponses } from './response-objects.cjs';
import type { DeclaredError } from './route-doc-comment.cjs';
import { isUndescribable, type PendingSchema, type TypeSchemas } from './type-schemas.cjs';

export interface OperationResponsesOptions {
  readonly tk: ProgramToolkit;
  readonly schemas: TypeSchemas;
  readonly source: OperationSource;
  /** `Controller.method`, as diagnostics name the route. */
  readonly where: string;
  /** The handler's `@produces` media type. */
  readonly produces: string | undefined;
  /** `@throws` tags of the route, its controller and its middlewares, in that order. */
  readonly declaredErrors: readonly DeclaredError[];
  /** `@response` tags of the route, then of its middlewares. */
  readonly declaredResponses: readonly { readonly status: string; readonly description: string }[];
  /** What the route takes: it decides which of Kiln's own errors it may answer with. */
  readonly inputs: Pick<RequestInputs, 'canFail' | 'body'>;
  /** How error answers are written: Kiln's error body or problem details. */
  readonly errors: ErrorsFormat;
  readonly diagnostics: ts.Diagnostic[];
}

type Responses = Record<string, ResponseObject>;

/** The handler's own answers, from its return type (an `@Sse()` route's: an event stream); a type that is not JSON is reported. */
function handlerResponses({ tk, schemas, source, where, produces, diagnostics }: OperationResponsesOptions): Responses {
  const success = source.eventStream
    ? eventStreamResponses(tk, schemas, source.declaration, source.status)
    : successResponses(tk, schemas, source.declaration, source.status, produces);
  if (success.problems.length > 0) {
    diagnostics.push(
      kilnDiagnostic(
        tk.ts,
        source.declaration.name,
        diagnosticMessage('openApiNotJson', 'notJson', where, success.typeText, success.problems.join('; ')),
      ),
    );
  }
  return { ...success.responses };
}

/** Adds the `@throws` HttpErrors (with their data's schema); a tag that names no HttpError status is reported. */
function addDeclaredErrors(
  responses: Responses,
  { tk, schemas, where, declaredErrors, errors, diagnostics }: OperationResponsesOptions,
): void {
  for (const declared of declaredErrors) {
    const error = declaredHttpError(tk, declared);
    if (error === undefined) continue;
    if (typeof error === 'string') {
      diagnostics.push(kilnDiagnostic(tk.ts, declared.tag, diagnosticMessage('throwsNotAnHttpError', 'notAnHttpError', where, error)));
      continue;
    }
    let problem: DeclaredProblem | undefined;
    if (errors === 'problem+json') {
      const described = declaredProblem(tk, error, where);
      if (!('dataIsObject' in described)) {
        diagnostics.push(kilnDiagnostic(tk.ts, declared.type, described));
        continue;
      }
      problem = described;
    }
    let data: JsonSchema | PendingSchema | undefined;
    if (error.data !== undefined) {
      const added = schemas.add(error.data);
      if (isUndescribable(added)) {
        diagnostics.push(
          kilnDiagnostic(
            tk.ts,
            declared.type,
            diagnosticMessage('openApiTypeNotDescribable', 'errorData', where, error.status, added.problems.join('; ')),
          ),
        );
        continue;
      }
      data = added;
    }
    responses[String(error.status)] ??= declaredErrorResponse(String(error.status), declared.description, data, problem);
  }
}

/** Adds the `@response` tags: an error body from 400 on, a plain description below. */
function addDeclaredResponses(responses: Responses, { declaredResponses, errors }: OperationResponsesOptions): void {
  for (const declared of declaredResponses) {
    responses[declared.status] ??=
      Number(declared.status) >= 400
        ? errorResponse(declared.status, declared.description, errors)
        : { description: declared.description || 'Success' };
  }
}

/** Adds the errors Kiln answers by itself: a failed conversion, a used-up rate limit, a body it refuses. */
function addKilnErrors(responses: Responses, { source, inputs, errors }: OperationResponsesOptions): void {
  if (inputs.canFail)
    responses['400'] ??= errorResponse(
      '400',
      'Bad Request: a parameter or the body failed conversion or validation (answered when the server runs with strictValidation)',
      errors,
    );
  if (source.rateLimited) responses['429'] ??= errorResponse('429', 'Too Many Requests: the rate limit of this route is used up', errors);
  // A body with files is read under the server's uploads limits, not maxBodySize.
  if (inputs.body === 'multipart') {
    responses['413'] ??= errorResponse(
      '413',
      "Payload Too Large: a file, a field or the whole body is past the server's uploads limits (maxFileSize, maxFieldSize, maxFiles, maxFields, maxTotalSize)",
      errors,
    );
    responses['415'] ??= errorResponse('415', 'Unsupported Media Type: the body is not multipart/form-data', errors);
  } else if (inputs.body === 'parsed') {
    responses['413'] ??= errorResponse('413', "Payload Too Large: the body is larger than the server's maxBodySize", errors);
    responses['415'] ??= errorResponse('415', 'Unsupported Media Type: the body is not JSON, a urlencoded form or text', errors);
  }
}

/** Every response of a route, by status in ascending order. */
export function operationResponses(options: OperationResponsesOptions): Responses {
  const responses = handlerResponses(options);
  addDeclaredErrors(responses, options);
  addDeclaredResponses(responses, options);
  addKilnErrors(responses, options);
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}
