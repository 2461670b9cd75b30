// Assembles the OpenAPI 3.1 document of a program from the routes (operation-sources), their bound
// parameters (the program model), their JSDoc and their return types. Every schema of a type is
// written by typia in one pass at the end, so shared types become shared components.
import type * as ts from 'typescript';
import type { ProgramModel } from '../analyse/analyse-program.cjs';
import { diagnosticMessage } from '../diagnostics/diagnostic-codes.cjs';
import { kilnDiagnostic, kilnGlobalDiagnostic } from '../diagnostics/kiln-diagnostic.cjs';
import type { ProgramToolkit, Toolkit } from '../toolkit.cjs';
import { readDocComment, type RouteDocComment } from './route-doc-comment.cjs';
import { findOperationSources, type OperationSource } from './operation-sources.cjs';
import type { JsonSchema, OpenApiInfo, OperationObject, ParameterObject, ResponseObject } from './openapi-types.cjs';
import { canFailConversion, parameterObject } from './parameter-objects.cjs';
import { errorBodyComponent, errorBodySchema, errorResponse, successResponses } from './response-objects.cjs';
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

export interface DocumentAnswer {
  readonly document: OpenApiDocument;
  readonly diagnostics: readonly ts.Diagnostic[];
}

/** What every step of one document's build shares: the program, the schemas being collected, the diagnostics so far. */
interface DocumentBuild {
  readonly tk: ProgramToolkit;
  readonly schemas: TypeSchemas;
  readonly diagnostics: ts.Diagnostic[];
}

/** What a route takes: its parameters and body, and what that says about the errors it can answer. */
interface OperationInputs {
  readonly parameters: ParameterObject[];
  readonly requestBody: OperationObject['requestBody'];
  /** A conversion or validation can fail: a 400 under strictValidation. */
  readonly canFail: boolean;
  readonly hasBody: boolean;
  readonly multipart: boolean;
  /** The responses the JSDoc of its class middlewares' `use` declares. */
  readonly middlewareResponses: readonly { status: string; description: string }[];
}

/** Writes the document of every route of the program. */
export function buildOpenApiDocument(
  tk: ProgramToolkit,
  program: ProgramModel,
  typia: NonNullable<ReturnType<typeof loadTypiaCore>>,
  head: { readonly info: OpenApiInfo; readonly servers?: readonly unknown[] },
): DocumentAnswer {
  const build: DocumentBuild = { tk, schemas: new TypeSchemas(typia, tk.ts, tk.checker), diagnostics: [] };
  const paths: Record<string, Record<string, OperationObject>> = {};
  const operationIds = new Map<string, OperationSource>();
  const tags = new Map<string, string | undefined>();

  for (const source of findOperationSources(tk, program)) {
    const where = `${source.className}.${source.methodName}`;
    if (source.path === undefined) {
      build.diagnostics.push(
        kilnDiagnostic(tk.ts, source.decorator, diagnosticMessage('openApiPathUnknown', 'pathUnknown', source.method, where)),
      );
      continue;
    }
    const doc = readDocComment(tk.ts, source.declaration);
    const operationId = uniqueOperationId(build, source, doc, operationIds);
    if (operationId === undefined) continue;
    const tag = tagOf(source.className);
    if (!tags.has(tag)) tags.set(tag, readDocComment(tk.ts, source.controller).summary);
    const inputs = operationInputs(build, source, doc, where);
    // Written in reading order: what it is, what it takes, what it answers.
    (paths[openApiPath(source.path)] ??= {})[source.method.toLowerCase()] = {
      operationId,
      tags: [tag],
      summary: doc.summary,
      description: doc.description,
      deprecated: doc.deprecated ? true : undefined,
      parameters: inputs.parameters.length > 0 ? inputs.parameters : undefined,
      requestBody: inputs.requestBody,
      responses: operationResponses(build, source, doc, inputs, where),
    };
  }
  return { document: writtenDocument(build, head, paths, tags), diagnostics: build.diagnostics };
}

/** The route's operationId (its @operationId tag, else Class.method), or undefined when another route has it (KILN141). */
function uniqueOperationId(
  build: DocumentBuild,
  source: OperationSource,
  doc: RouteDocComment,
  operationIds: Map<string, OperationSource>,
): string | undefined {
  const where = `${source.className}.${source.methodName}`;
  // An inherited route is another operation than its base class's: its @operationId tag stays the base's.
  const operationId =
    (source.inherited ? undefined : doc.operationId) ?? (source.routeIndex === 0 ? where : `${where}_${source.routeIndex + 1}`);
  const first = operationIds.get(operationId);
  if (first !== undefined) {
    build.diagnostics.push(
      kilnDiagnostic(
        build.tk.ts,
        source.declaration.name,
        diagnosticMessage(
          'duplicateOperationId',
          'taken',
          operationId,
          source.method,
          source.path!,
          first.method,
          first.path!,
          first.declaration.getSourceFile().fileName.replace(/^.*[\\/]/, ''),
        ),
      ),
    );
    return undefined;
  }
  operationIds.set(operationId, source);
  return operationId;
}

/** Parameters and body: the handler's, then those of the class middlewares guarding it (e.g. an API-key header). */
function operationInputs(build: DocumentBuild, source: OperationSource, doc: RouteDocComment, where: string): OperationInputs {
  const { tk, schemas, diagnostics } = build;
  const parameters: ParameterObject[] = [];
  const bodyProperties: Record<string, unknown> = {};
  const bodyRequired: string[] = [];
  let wholeBody: { required: boolean; content: Record<string, { schema: unknown }> } | undefined;
  let canFail = false;
  let hasBody = false;
  let multipart = false;
  const middlewareResponses: { status: string; description: string }[] = [];
  const methods = [
    { declaration: source.declaration, model: source.model, descriptions: doc.parameters },
    ...source.middlewares.map((m) => {
      const useDoc = readDocComment(tk.ts, m.use);
      middlewareResponses.push(...useDoc.responses);
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
  let requestBody: OperationObject['requestBody'] = wholeBody;
  if (requestBody === undefined && Object.keys(bodyProperties).length > 0) {
    const schema = { type: 'object', properties: bodyProperties, ...(bodyRequired.length > 0 ? { required: bodyRequired } : {}) };
    requestBody = {
      required: bodyRequired.length > 0,
      content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
    };
  }
  return { parameters, requestBody, canFail, hasBody, multipart, middlewareResponses };
}

/** Responses: the handler's own, the ones its JSDoc and middlewares declare, then Kiln's; by status. */
function operationResponses(
  build: DocumentBuild,
  source: OperationSource,
  doc: RouteDocComment,
  inputs: OperationInputs,
  where: string,
): Record<string, ResponseObject> {
  const { tk, schemas } = build;
  const success = successResponses(tk, schemas, source.declaration, source.status, doc.produces);
  if (success.problems.length > 0) {
    build.diagnostics.push(
      kilnDiagnostic(
        tk.ts,
        source.declaration.name,
        diagnosticMessage('openApiNotJson', 'notJson', where, success.typeText, success.problems.join('; ')),
      ),
    );
  }
  const responses: Record<string, ResponseObject> = { ...success.responses };
  for (const declared of [...doc.responses, ...inputs.middlewareResponses]) {
    responses[declared.status] ??=
      Number(declared.status) >= 400
        ? errorResponse(declared.status, declared.description)
        : { description: declared.description || 'Success' };
  }
  if (inputs.canFail)
    responses['400'] ??= errorResponse(
      '400',
      'Bad Request: a parameter or the body failed conversion or validation (answered when the server runs with strictValidation)',
    );
  // A body with files is read under the server's uploads limits, not maxBodySize.
  if (inputs.hasBody && inputs.multipart) {
    responses['413'] ??= errorResponse(
      '413',
      "Payload Too Large: a file, a field or the whole body is past the server's uploads limits (maxFileSize, maxFieldSize, maxFiles, maxFields, maxTotalSize)",
    );
    responses['415'] ??= errorResponse('415', 'Unsupported Media Type: the body is not multipart/form-data');
  } else if (inputs.hasBody) {
    responses['413'] ??= errorResponse('413', "Payload Too Large: the body is larger than the server's maxBodySize");
    responses['415'] ??= errorResponse('415', 'Unsupported Media Type: the body is not JSON, a urlencoded form or text');
  }
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}

/** The whole document: typia writes the collected schemas, which replace their placeholders in the paths. */
function writtenDocument(
  build: DocumentBuild,
  head: { readonly info: OpenApiInfo; readonly servers?: readonly unknown[] },
  paths: Record<string, Record<string, OperationObject>>,
  tags: ReadonlyMap<string, string | undefined>,
): OpenApiDocument {
  let written: ReturnType<TypeSchemas['write']>;
  try {
    written = build.schemas.write();
  } catch (error) {
    build.diagnostics.push(
      kilnGlobalDiagnostic(build.tk.ts, diagnosticMessage('openApiNotWritten', 'notGenerated', (error as Error).message)),
    );
    written = { schemas: [], components: {} };
  }
  const resolved = resolvePending(paths, written.schemas);
  const components: Record<string, JsonSchema> = { ...written.components };
  components[errorBodyComponent] = errorBodySchema;
  return {
    openapi: '3.1.0',
    info: head.info,
    ...(head.servers === undefined ? {} : { servers: head.servers }),
    tags: [...tags].map(([name, description]) => (description === undefined ? { name } : { name, description })),
    paths: resolved,
    components: { schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))) },
  };
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
