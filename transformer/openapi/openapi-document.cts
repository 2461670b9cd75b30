// Assembles the OpenAPI 3.1 document of a program from the routes (operation-sources), their bound
// parameters (the program model), their JSDoc and their return types. Every schema of a type is
// written by typia in one pass at the end, so shared types become shared components.
import type * as ts from 'typescript';
import type { ProgramModel } from '../analyse/analyse-program.cjs';
import { type DiagnosticMessage, diagnosticMessage } from '../diagnostics/diagnostic-codes.cjs';
import { kilnDiagnostic, kilnGlobalDiagnostic } from '../diagnostics/kiln-diagnostic.cjs';
import type { ProgramToolkit, Toolkit } from '../toolkit.cjs';
import { readDocComment } from './route-doc-comment.cjs';
import { findOperationSources, type OperationSource } from './operation-sources.cjs';
import type { JsonSchema, OpenApiInfo, OperationObject, ParameterObject, ResponseObject } from './openapi-types.cjs';
import { canFailConversion, parameterObject } from './parameter-objects.cjs';
import {
  type DeclaredProblem,
  declaredErrorResponse,
  errorComponents,
  type ErrorsFormat,
  errorResponse,
  successResponses,
} from './response-objects.cjs';
import { eventStreamResponses } from './event-stream-responses.cjs';
import type { DeclaredError } from './route-doc-comment.cjs';
import { isPendingSchema, isUndescribable, TypeSchemas, type PendingSchema, type loadTypiaCore } from './type-schemas.cjs';

export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: OpenApiInfo;
  readonly [field: string]: unknown;
}

/** `/books/:id` → `/books/{id}`, as the runtime's (src/router/route-path.ts) reads the served document. */
export function openApiPath(path: string): string {
  return path.replace(/:([^/]+)/g, '{$1}');
}

/** The tag of a controller: its class name without the `Controller` suffix (`BooksController` → `Books`). */
function tagOf(className: string): string {
  return className.length > 'Controller'.length && className.endsWith('Controller') ? className.slice(0, -'Controller'.length) : className;
}

/** Media types of a `@Body()`: what Kiln parses (JSON always; urlencoded forms and text only where the type can hold them). */
function bodyContent(schema: JsonSchema | PendingSchema, type: ts.Type, tk: Toolkit): Record<string, { schema: unknown }> {
  const { TypeFlags } = tk.ts;
  if (type.flags & (TypeFlags.Any | TypeFlags.Unknown)) {
    return {
      'application/json': { schema: {} },
      'application/x-www-form-urlencoded': { schema: { type: 'object' } },
      'text/plain': { schema: { type: 'string' } },
    };
  }
  if (tk.checker.getNonNullableType(type).flags & TypeFlags.StringLike) return { 'application/json': { schema }, 'text/plain': { schema } };
  return { 'application/json': { schema } };
}

/**
 * The status and data type of a `@throws` tag's type: an HttpError subclass
 * (`class BookNotFound extends HttpError<404, { id: number }>`) or `HttpError<404, BookNotFound>`;
 * what is wrong with it otherwise. (TypeScript gives a type literal written inside JSDoc no
 * members, so the data's type is named, not written in the tag.)
 */
function declaredError(
  tk: ProgramToolkit,
  declared: DeclaredError,
): { status: number; data: ts.Type | undefined; type: ts.Type } | string | undefined {
  const example = 'must name an HttpError type with a literal status: @throws {BookNotFound} or @throws {HttpError<404, BookNotFound>}';
  let literal = false;
  const visit = (node: ts.Node): void => {
    literal ||= tk.ts.isTypeLiteralNode(node) || tk.ts.isMappedTypeNode(node);
    tk.ts.forEachChild(node, visit);
  };
  visit(declared.type);
  if (literal)
    return `writes the data's type inside the tag, where TypeScript gives it no members: declare it as an interface or type alias and name it (@throws {HttpError<404, BookNotFound>})`;
  const type = tk.checker.getTypeFromTypeNode(declared.type);
  const status = type.getProperty('status');
  const statusType = status === undefined ? undefined : tk.checker.getTypeOfSymbol(status);
  // Another error the method may throw (`@throws {TypeError}`): not an answer of the route.
  if (status === undefined && !declared.type.getText().includes('HttpError')) return undefined;
  if (statusType === undefined || !(statusType.flags & tk.ts.TypeFlags.NumberLiteral)) return example;
  const value = (statusType as ts.NumberLiteralType).value;
  if (!Number.isInteger(value) || value < 400 || value > 599) return `names the status ${value}: an HttpError's is from 400 to 599`;
  const data = type.getProperty('data');
  const dataType = data === undefined ? undefined : tk.checker.getNonNullableType(tk.checker.getTypeOfSymbol(data));
  const unknown = dataType === undefined || !!(dataType.flags & (tk.ts.TypeFlags.Unknown | tk.ts.TypeFlags.Any));
  return { status: value, data: unknown ? undefined : dataType, type };
}

/** The members RFC 9457 defines, which Kiln writes: a data member of one of these names is left out. */
const problemMemberNames = ['type', 'title', 'status', 'detail', 'instance'];

/** A string literal property of a declared HttpError subclass (`override readonly type = '...'`). */
function literalMember(tk: ProgramToolkit, error: ts.Type, name: string): string | undefined {
  const member = error.getProperty(name);
  const type = member === undefined ? undefined : tk.checker.getTypeOfSymbol(member);
  return type !== undefined && type.flags & tk.ts.TypeFlags.StringLiteral ? (type as ts.StringLiteralType).value : undefined;
}

/** Whether JSON writes a value of `type` as an object (not an array, not a primitive). */
function isJsonObject(tk: ProgramToolkit, type: ts.Type): boolean {
  return !!(type.flags & tk.ts.TypeFlags.Object) && !tk.checker.isArrayType(type) && !tk.checker.isTupleType(type);
}

/**
 * How a declared error appears as problem details, or why it cannot (KILN178): an object's
 * members are extension members, so none may be one of RFC 9457's; any other data is `data`.
 */
function declaredProblem(
  tk: ProgramToolkit,
  error: { status: number; data: ts.Type | undefined; type: ts.Type },
  where: string,
): DeclaredProblem | DiagnosticMessage {
  const type = literalMember(tk, error.type, 'type');
  const title = literalMember(tk, error.type, 'title');
  if (error.data === undefined) return { dataIsObject: false, type, title };
  const parts = error.data.isUnion() ? error.data.types : [error.data];
  const objects = parts.filter((part) => isJsonObject(tk, part));
  if (objects.length > 0 && objects.length < parts.length)
    return diagnosticMessage('problemDataNotDescribable', 'mixedData', where, error.status, tk.checker.typeToString(error.data));
  for (const part of objects) {
    const reserved = tk.checker.getPropertiesOfType(part).find((property) => problemMemberNames.includes(property.getName()));
    if (reserved !== undefined)
      return diagnosticMessage('problemDataNotDescribable', 'reservedMember', where, error.status, reserved.getName());
  }
  return { dataIsObject: objects.length > 0, type, title };
}

export interface DocumentAnswer {
  readonly document: OpenApiDocument;
  readonly diagnostics: readonly ts.Diagnostic[];
}

/** Writes the document of every route of the program. */
export function buildOpenApiDocument(
  tk: ProgramToolkit,
  program: ProgramModel,
  typia: NonNullable<ReturnType<typeof loadTypiaCore>>,
  head: { readonly info: OpenApiInfo; readonly servers?: readonly unknown[] },
  errors: ErrorsFormat = 'json',
): DocumentAnswer {
  const diagnostics: ts.Diagnostic[] = [];
  const schemas = new TypeSchemas(typia, tk.ts, tk.checker);
  const paths: Record<string, Record<string, OperationObject>> = {};
  const operationIds = new Map<string, OperationSource>();
  const tags = new Map<string, string | undefined>();

  for (const source of findOperationSources(tk, program)) {
    const where = `${source.className}.${source.methodName}`;
    if (source.path === undefined) {
      diagnostics.push(
        kilnDiagnostic(tk.ts, source.decorator, diagnosticMessage('openApiPathUnknown', 'pathUnknown', source.method, where)),
      );
      continue;
    }
    const doc = readDocComment(tk.ts, source.declaration);
    // An inherited route is another operation than its base class's: its @operationId tag stays the base's.
    const operationId =
      (source.inherited ? undefined : doc.operationId) ?? (source.routeIndex === 0 ? where : `${where}_${source.routeIndex + 1}`);
    const first = operationIds.get(operationId);
    if (first !== undefined) {
      diagnostics.push(
        kilnDiagnostic(
          tk.ts,
          source.declaration.name,
          diagnosticMessage(
            'duplicateOperationId',
            'taken',
            operationId,
            source.method,
            source.path,
            first.method,
            first.path!,
            first.declaration.getSourceFile().fileName.replace(/^.*[\\/]/, ''),
          ),
        ),
      );
      continue;
    }
    operationIds.set(operationId, source);
    const tag = tagOf(source.className);
    if (!tags.has(tag)) tags.set(tag, readDocComment(tk.ts, source.controller).summary);

    const operation: OperationObject = { operationId, tags: [tag], responses: {} };
    if (doc.summary !== undefined) operation.summary = doc.summary;
    if (doc.description !== undefined) operation.description = doc.description;
    if (doc.deprecated) operation.deprecated = true;

    // Parameters: the handler's, then those of the class middlewares guarding it (e.g. an API-key header).
    const parameters: ParameterObject[] = [];
    const bodyProperties: Record<string, unknown> = {};
    const bodyRequired: string[] = [];
    let wholeBody: { required: boolean; content: Record<string, { schema: unknown }> } | undefined;
    let canFail = false;
    let hasBody = false;
    let multipart = false;
    const middlewareResponses: { status: string; description: string }[] = [];
    // The route's own @throws, its controller's (every route of it), its middlewares'.
    const declaredErrors: DeclaredError[] = [...doc.throws, ...readDocComment(tk.ts, source.controller).throws];
    const methods = [
      { declaration: source.declaration, model: source.model, descriptions: doc.parameters },
      ...source.middlewares.map((m) => {
        const useDoc = readDocComment(tk.ts, m.use);
        middlewareResponses.push(...useDoc.responses);
        declaredErrors.push(...useDoc.throws);
        return { declaration: m.use, model: m.model, descriptions: useDoc.parameters };
      }),
    ];
    for (const { declaration, model, descriptions } of methods) {
      for (const parameter of model?.parameters ?? []) {
        if (parameter === undefined) continue;
        const node = declaration.parameters[parameter.index]!;
        const description = descriptions.get(parameter.parameterName);
        canFail ||= canFailConversion(parameter);
        if (parameter.source === 'body') {
          hasBody = true;
          multipart ||= parameter.validation?.form === true;
          const type = tk.checker.getTypeAtLocation(node);
          const nonNull = tk.checker.getNonNullableType(type);
          // (unknown without null and undefined is {}: test the declared type itself)
          const any = !!(type.flags & (tk.ts.TypeFlags.Any | tk.ts.TypeFlags.Unknown));
          const schema = any ? {} : schemas.add(nonNull);
          if (isUndescribable(schema)) {
            diagnostics.push(
              kilnDiagnostic(
                tk.ts,
                node.type ?? node,
                diagnosticMessage('openApiTypeNotDescribable', 'body', where, schema.problems.join('; ')),
              ),
            );
            continue;
          }
          if (parameter.key === '')
            wholeBody = {
              required: parameter.required,
              // A body with files is a multipart/form-data form; each File property is a binary part.
              content: parameter.validation?.form === true ? { 'multipart/form-data': { schema } } : bodyContent(schema, type, tk),
            };
          else {
            bodyProperties[parameter.key] = description === undefined ? schema : { ...schema, description };
            if (parameter.required) bodyRequired.push(parameter.key);
          }
          continue;
        }
        const object = parameterObject(tk, schemas, parameter, node, description);
        if (object === undefined) continue;
        if (isUndescribable(object)) {
          diagnostics.push(
            kilnDiagnostic(
              tk.ts,
              node.type ?? node,
              diagnosticMessage('openApiTypeNotDescribable', 'parameter', parameter.parameterName, where, object.problems.join('; ')),
            ),
          );
          continue;
        }
        if (!parameters.some((p) => p.in === object.in && p.name.toLowerCase() === object.name.toLowerCase())) parameters.push(object);
      }
    }
    if (parameters.length > 0) operation.parameters = parameters;
    if (wholeBody !== undefined) operation.requestBody = wholeBody;
    else if (Object.keys(bodyProperties).length > 0) {
      const schema = { type: 'object', properties: bodyProperties, ...(bodyRequired.length > 0 ? { required: bodyRequired } : {}) };
      operation.requestBody = {
        required: bodyRequired.length > 0,
        content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
      };
    }

    // Responses: the handler's own, the ones its JSDoc and middlewares declare, then Kiln's.
    const success = source.eventStream
      ? eventStreamResponses(tk, schemas, source.declaration, source.status)
      : successResponses(tk, schemas, source.declaration, source.status, doc.produces);
    if (success.problems.length > 0) {
      diagnostics.push(
        kilnDiagnostic(
          tk.ts,
          source.declaration.name,
          diagnosticMessage('openApiNotJson', 'notJson', where, success.typeText, success.problems.join('; ')),
        ),
      );
    }
    const responses: Record<string, ResponseObject> = { ...success.responses };
    for (const declared of declaredErrors) {
      const error = declaredError(tk, declared);
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
    for (const declared of [...doc.responses, ...middlewareResponses]) {
      responses[declared.status] ??=
        Number(declared.status) >= 400
          ? errorResponse(declared.status, declared.description, errors)
          : { description: declared.description || 'Success' };
    }
    if (canFail)
      responses['400'] ??= errorResponse(
        '400',
        'Bad Request: a parameter or the body failed conversion or validation (answered when the server runs with strictValidation)',
        errors,
      );
    if (source.rateLimited) responses['429'] ??= errorResponse('429', 'Too Many Requests: the rate limit of this route is used up', errors);
    // A body with files is read under the server's uploads limits, not maxBodySize.
    if (hasBody && multipart) {
      responses['413'] ??= errorResponse(
        '413',
        "Payload Too Large: a file, a field or the whole body is past the server's uploads limits (maxFileSize, maxFieldSize, maxFiles, maxFields, maxTotalSize)",
        errors,
      );
      responses['415'] ??= errorResponse('415', 'Unsupported Media Type: the body is not multipart/form-data', errors);
    } else if (hasBody) {
      responses['413'] ??= errorResponse('413', "Payload Too Large: the body is larger than the server's maxBodySize", errors);
      responses['415'] ??= errorResponse('415', 'Unsupported Media Type: the body is not JSON, a urlencoded form or text', errors);
    }
    // Written in reading order: what it is, what it takes, what it answers.
    const { operationId: id, tags: operationTags, summary, description, deprecated, parameters: inputs, requestBody } = operation;
    (paths[openApiPath(source.path)] ??= {})[source.method.toLowerCase()] = {
      operationId: id,
      tags: operationTags,
      summary,
      description,
      deprecated,
      parameters: inputs,
      requestBody,
      responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b))),
    };
  }

  let written: ReturnType<TypeSchemas['write']>;
  try {
    written = schemas.write();
  } catch (error) {
    diagnostics.push(kilnGlobalDiagnostic(tk.ts, diagnosticMessage('openApiNotWritten', 'notGenerated', (error as Error).message)));
    written = { schemas: [], components: {} };
  }
  const resolved = resolvePending(paths, written.schemas);
  const components: Record<string, JsonSchema> = { ...written.components };
  Object.assign(components, errorComponents(errors));
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: head.info,
    ...(head.servers === undefined ? {} : { servers: head.servers }),
    tags: [...tags].map(([name, description]) => (description === undefined ? { name } : { name, description })),
    paths: resolved,
    components: { schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))) },
  };
  return { document, diagnostics };
}

/** Replaces every placeholder by the schema typia wrote for its type. */
function resolvePending<T>(value: T, schemas: readonly JsonSchema[]): T {
  if (isPendingSchema(value)) {
    const { $kilnType, ...keywords } = value as PendingSchema & Record<string, unknown>;
    return { ...schemas[$kilnType], ...keywords } as T;
  }
  if (Array.isArray(value)) return value.map((item) => resolvePending(item, schemas)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, resolvePending(v, schemas)]),
    ) as T;
  }
  return value;
}
