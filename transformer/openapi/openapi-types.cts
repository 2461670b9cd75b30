// The parts of the OpenAPI 3.1 document the transformer writes, as plain JSON-shaped types.

/** A JSON Schema (2020-12 dialect, as OpenAPI 3.1 uses it). */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** `info` of the document: at least a title and a version. */
export interface OpenApiInfo {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
  readonly [field: string]: unknown;
}

/** The `openapi` option of the plugin entry in tsconfig.json. */
export interface OpenApiOptions {
  /** Where the document is written, relative to the tsconfig.json (e.g. `"openapi.json"`). */
  readonly output: string;
  /** The document's `info`; defaults to the project's package.json `name` and `version`. */
  readonly info?: OpenApiInfo;
  /** The document's `servers` (e.g. `[{ "url": "https://api.example.com" }]`); none by default. */
  readonly servers?: readonly { readonly url: string; readonly description?: string }[];
}

export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  description?: string;
  deprecated?: boolean;
  style?: string;
  explode?: boolean;
  schema?: unknown;
  content?: Record<string, { schema: unknown }>;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, unknown>;
  /** `x-itemSchema`: the schema of each item of a sequential media type (`text/event-stream`), OpenAPI 3.2's `itemSchema`. */
  content?: Record<string, { schema?: unknown; 'x-itemSchema'?: unknown }>;
}

export interface OperationObject {
  operationId: string;
  tags: string[];
  summary?: string;
  description?: string;
  deprecated?: boolean;
  parameters?: ParameterObject[];
  requestBody?: { required: boolean; description?: string; content: Record<string, { schema: unknown }> };
  responses: Record<string, ResponseObject>;
}
