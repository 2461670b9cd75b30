// Assembles the OpenAPI 3.1 document of a program from the routes (operation-sources), each written
// as an Operation Object (operation-object), then every schema of a type, which typia writes in one
// pass at the end, so shared types become shared components.
import type * as ts from 'typescript';
import type { ProgramModel } from '../analyse/analyse-program.cjs';
import { diagnosticMessage } from '../diagnostics/diagnostic-codes.cjs';
import { kilnGlobalDiagnostic } from '../diagnostics/kiln-diagnostic.cjs';
import type { ProgramToolkit } from '../toolkit.cjs';
import { OperationNames } from './operation-naming.cjs';
import { operationObject } from './operation-object.cjs';
import { findOperationSources } from './operation-sources.cjs';
import type { JsonSchema, OpenApiInfo, OperationObject } from './openapi-types.cjs';
import { errorComponents, type ErrorsFormat } from './response-objects.cjs';
import { isPendingSchema, TypeSchemas, type PendingSchema, type loadTypiaCore } from './type-schemas.cjs';

export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: OpenApiInfo;
  readonly [field: string]: unknown;
}

/** `/books/:id` → `/books/{id}`, as the runtime's (src/router/route-path.ts) reads the served document. */
export function openApiPath(path: string): string {
  return path.replace(/:([^/]+)/g, '{$1}');
}

export interface DocumentAnswer {
  readonly document: OpenApiDocument;
  readonly diagnostics: readonly ts.Diagnostic[];
}

/** The document's `info` and `servers`: what the plugin entry's `openapi` option (or package.json) gives. */
export interface DocumentHead {
  readonly info: OpenApiInfo;
  readonly servers?: readonly unknown[];
}

export interface OpenApiDocumentOptions {
  readonly tk: ProgramToolkit;
  readonly program: ProgramModel;
  readonly typia: NonNullable<ReturnType<typeof loadTypiaCore>>;
  readonly head: DocumentHead;
  /** How error answers are written: Kiln's error body (the default) or problem details. */
  readonly errors?: ErrorsFormat;
}

type Paths = Record<string, Record<string, OperationObject>>;

/** Replaces every placeholder by the schema typia wrote for its type, and leaves out undefined fields. */
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

/** Has typia write every schema the operations refer to; a failure is reported and leaves them empty. */
function writeSchemas(schemas: TypeSchemas, tk: ProgramToolkit, diagnostics: ts.Diagnostic[]): ReturnType<TypeSchemas['write']> {
  try {
    return schemas.write();
  } catch (error) {
    diagnostics.push(kilnGlobalDiagnostic(tk.ts, diagnosticMessage('openApiNotWritten', 'notGenerated', (error as Error).message)));
    return { schemas: [], components: {} };
  }
}

/** Writes the document of every route of the program. */
export function buildOpenApiDocument({ tk, program, typia, head, errors = 'json' }: OpenApiDocumentOptions): DocumentAnswer {
  const diagnostics: ts.Diagnostic[] = [];
  const schemas = new TypeSchemas(typia, tk.ts, tk.checker);
  const names = new OperationNames();
  const paths: Paths = {};
  for (const source of findOperationSources(tk, program)) {
    const operation = operationObject(source, { tk, schemas, names, errors, diagnostics });
    if (operation !== undefined) (paths[openApiPath(source.path!)] ??= {})[source.method.toLowerCase()] = operation;
  }
  const written = writeSchemas(schemas, tk, diagnostics);
  const components: Record<string, JsonSchema> = { ...written.components, ...errorComponents(errors) };
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: head.info,
    ...(head.servers === undefined ? {} : { servers: head.servers }),
    tags: names.tagObjects(),
    paths: resolvePending(paths, written.schemas),
    components: { schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))) },
  };
  return { document, diagnostics };
}
