// The responses of one route: what the handler returns (its declared or inferred return type,
// `Promise` unwrapped), and the errors Kiln itself answers for the route.
import type * as ts from 'typescript';
import type { Toolkit } from '../toolkit.cjs';
import type { JsonSchema, ResponseObject } from './openapi-types.cjs';
import { isUndescribable, type PendingSchema, type TypeSchemas } from './type-schemas.cjs';

/** The component every Kiln error answer uses: `{ error, message, data? }` (src/response/error-body.ts). */
export const errorBodyComponent = 'KilnErrorBody';

export const errorBodySchema: JsonSchema = {
  type: 'object',
  description: "Kiln's error body: the status's reason phrase, a message saying what is wrong, and the HttpError's data if it has any.",
  properties: {
    error: { type: 'string', description: 'The reason phrase of the status, e.g. "Bad Request".' },
    message: { type: 'string' },
    data: {
      description:
        'The data of the HttpError, when it carries some (for a body that failed validation: { errors: [{ path, expected, value? }] }).',
    },
  },
  required: ['error', 'message'],
  additionalProperties: false,
};

/** The phrases of the statuses Kiln documents: the runtime's (src/response/reason-phrase.ts), as a contract test checks. */
export const reasonPhrases: Readonly<Record<string, string>> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

/** Which error body the server answers with: its `errors` option, which the plugin entry's repeats. */
export type ErrorsFormat = 'json' | 'problem+json';

/** RFC 9457 problem details (src/response/problem-details.ts), the error body with `errors: 'problem+json'`. */
export const problemDetailsComponent = 'KilnProblemDetails';

export const problemDetailsSchema: JsonSchema = {
  type: 'object',
  description:
    "RFC 9457 problem details: every error answer with errors: 'problem+json'. Further members are the HttpError's data (extension members).",
  properties: {
    type: {
      type: 'string',
      format: 'uri-reference',
      description: 'The problem type: about:blank (the status says it all) unless the HttpError names one.',
    },
    title: { type: 'string', description: 'The status\'s reason phrase, e.g. "Bad Request", unless the HttpError gives one.' },
    status: { type: 'integer', description: 'The status of the answer.' },
    detail: { type: 'string', description: "What is wrong: the HttpError's message." },
    instance: {
      type: 'string',
      format: 'uri-reference',
      description: "The occurrence: the request's path unless the HttpError names one.",
    },
  },
  required: ['type', 'title', 'status', 'detail'],
  additionalProperties: true,
};

/** Kiln's 400 as problem details: the failures of a conversion or validation, when it has them. */
export const validationProblemComponent = 'KilnValidationProblem';

export const validationProblemSchema: JsonSchema = {
  allOf: [
    { $ref: `#/components/schemas/${problemDetailsComponent}` },
    {
      type: 'object',
      properties: {
        errors: {
          type: 'array',
          description:
            'Each failure: the parameter (id, ids[1]) or the place in the body ($input.age), the type expected, the value received.',
          items: {
            type: 'object',
            properties: { path: { type: 'string' }, expected: { type: 'string' }, value: {} },
            required: ['path', 'expected'],
          },
        },
        more: { type: 'integer', description: 'How many failures past the ten listed.' },
      },
    },
  ],
};

/** The components the error answers of `format` refer to. */
export function errorComponents(format: ErrorsFormat): Record<string, JsonSchema> {
  return format === 'json'
    ? { [errorBodyComponent]: errorBodySchema }
    : { [problemDetailsComponent]: problemDetailsSchema, [validationProblemComponent]: validationProblemSchema };
}

/** A response answered with Kiln's error body, or its problem details (a 400's with its failures). */
export function errorResponse(status: string, description: string, format: ErrorsFormat = 'json'): ResponseObject {
  const text = description || reasonPhrases[status] || `Status ${status}`;
  if (format === 'problem+json') {
    const component = status === '400' ? validationProblemComponent : problemDetailsComponent;
    return { description: text, content: { 'application/problem+json': { schema: { $ref: `#/components/schemas/${component}` } } } };
  }
  return { description: text, content: { 'application/json': { schema: { $ref: `#/components/schemas/${errorBodyComponent}` } } } };
}

/** How a declared error's data and problem type appear in problem details. */
export interface DeclaredProblem {
  /** True when the data is an object, whose members are extension members; else it is the `data` member. */
  readonly dataIsObject: boolean;
  /** The literal `type` and `title` of an HttpError subclass that declares them. */
  readonly type?: string | undefined;
  readonly title?: string | undefined;
}

/**
 * A declared error as problem details: `KilnProblemDetails` and the data's members (or its `data`
 * member), with the subclass's literal `type` and `title`.
 */
function declaredProblemResponse(text: string, data: JsonSchema | PendingSchema | undefined, problem: DeclaredProblem): ResponseObject {
  const parts: unknown[] = [{ $ref: `#/components/schemas/${problemDetailsComponent}` }];
  const named: Record<string, JsonSchema> = {};
  if (problem.type !== undefined) named['type'] = { const: problem.type };
  if (problem.title !== undefined) named['title'] = { const: problem.title };
  if (Object.keys(named).length > 0) parts.push({ type: 'object', properties: named, required: Object.keys(named) });
  if (data !== undefined) parts.push(problem.dataIsObject ? data : { type: 'object', properties: { data }, required: ['data'] });
  return { description: text, content: { 'application/problem+json': { schema: { allOf: parts } } } };
}

/**
 * A declared error (`@throws {HttpError<404, { id: number }>}`): Kiln's error body with `data`
 * of the declared type (required), or the plain error body when the tag gives no data type; with
 * `problem`, problem details with the data as extension members.
 */
export function declaredErrorResponse(
  status: string,
  description: string,
  data: JsonSchema | PendingSchema | undefined,
  problem?: DeclaredProblem,
): ResponseObject {
  if (problem !== undefined) {
    const text = description || reasonPhrases[status] || `Status ${status}`;
    if (data === undefined && problem.type === undefined && problem.title === undefined)
      return errorResponse(status, description, 'problem+json');
    return declaredProblemResponse(text, data, problem);
  }
  if (data === undefined) return errorResponse(status, description);
  const { properties } = errorBodySchema as { properties: Record<string, JsonSchema> };
  return {
    description: description || reasonPhrases[status] || `Status ${status}`,
    content: {
      'application/json': {
        schema: {
          type: 'object',
          properties: { error: properties['error'], message: properties['message'], data },
          required: ['error', 'message', 'data'],
          additionalProperties: false,
        },
      },
    },
  };
}

function isResponseType(tk: Toolkit, type: ts.Type): boolean {
  const symbol = type.getSymbol();
  return symbol?.getName() === 'Response' && (symbol.declarations ?? []).some((d) => d.getSourceFile().isDeclarationFile);
}

/** Why a returned type is not JSON that typia can describe, checked before typia sees it. */
function notJson(tk: Toolkit, type: ts.Type): string | undefined {
  const { TypeFlags } = tk.ts;
  if (type.flags & (TypeFlags.BigInt | TypeFlags.BigIntLiteral)) return 'a bigint, which JSON.stringify throws on';
  if (type.flags & (TypeFlags.ESSymbol | TypeFlags.UniqueESSymbol)) return 'a symbol, which JSON cannot carry';
  if (type.getCallSignatures().length > 0) return 'a function, which JSON cannot carry';
  return undefined;
}

/** `never[]`: what `return []` infers to, an array that is always empty. */
function isEmptyArray(tk: Toolkit, type: ts.Type): boolean {
  return tk.checker.isArrayType(type) && !!((tk.checker.getTypeArguments(type as ts.TypeReference)[0]?.flags ?? 0) & tk.ts.TypeFlags.Never);
}

export interface SuccessResponses {
  readonly responses: Record<string, ResponseObject>;
  /** Why the return type cannot be described (reported as KILN140). */
  readonly problems: readonly string[];
  readonly typeText: string;
}

/** What a handler answers with, for every kind of route: its return type awaited (`any` without a signature), and that type as written. */
export function handlerResult(tk: Toolkit, declaration: ts.MethodDeclaration): { awaited: ts.Type; typeText: string } {
  const signature = tk.checker.getSignatureFromDeclaration(declaration);
  const returned = signature === undefined ? tk.checker.getAnyType() : signature.getReturnType();
  const awaited = tk.checker.getAwaitedType(returned) ?? returned;
  return { awaited, typeText: tk.checker.typeToString(awaited) };
}

/**
 * The success responses of a handler: `@HttpStatus` or 200 with the JSON schema of the returned
 * type, 204 (or the `@HttpStatus`) without content when it returns nothing, and a `Response`
 * return as any content (or the media type of the handler's `@produces` tag).
 */
export function successResponses(
  tk: Toolkit,
  schemas: TypeSchemas,
  declaration: ts.MethodDeclaration,
  status: number | undefined,
  produces: string | undefined,
): SuccessResponses {
  const { TypeFlags } = tk.ts;
  const { awaited, typeText } = handlerResult(tk, declaration);
  const parts = awaited.isUnion() ? awaited.types : [awaited];
  const empty = parts.some((t) => t.flags & (TypeFlags.Undefined | TypeFlags.Void));
  const present = parts.filter((t) => !(t.flags & (TypeFlags.Undefined | TypeFlags.Void | TypeFlags.Never)));
  const webResponses = present.filter((t) => isResponseType(tk, t));
  const json = present.filter((t) => !isResponseType(tk, t));
  const responses: Record<string, ResponseObject> = {};
  const problems: string[] = [];

  const dataStatus = String(status ?? 200);
  if (json.length > 0) {
    const foreign = json.map((t) => notJson(tk, t)).find((reason) => reason !== undefined);
    let schema: JsonSchema | PendingSchema | undefined;
    if (foreign !== undefined) problems.push(foreign);
    else if (awaited.flags & (TypeFlags.Any | TypeFlags.Unknown)) schema = {};
    else {
      // The whole type when nothing was taken out of it; otherwise each JSON member on its own.
      const whole = json.length === parts.length ? awaited : json.length === 1 ? json[0]! : undefined;
      const added = (whole === undefined ? json : [whole]).map((t) =>
        isEmptyArray(tk, t) ? { type: 'array', maxItems: 0 } : schemas.add(t),
      );
      for (const answer of added) if (isUndescribable(answer)) problems.push(...answer.problems);
      if (problems.length === 0) schema = added.length === 1 ? (added[0] as JsonSchema | PendingSchema) : { oneOf: added };
    }
    if (schema !== undefined)
      responses[dataStatus] = { description: reasonPhrases[dataStatus] ?? 'Success', content: { 'application/json': { schema } } };
  }
  if (webResponses.length > 0) {
    // A Response is sent as it is: its status and body are the handler's own.
    const content = { [produces ?? '*/*']: {} };
    const existing = responses[dataStatus];
    responses[dataStatus] =
      existing === undefined
        ? {
            description:
              produces === undefined ? 'A Response built by the handler (any content)' : (reasonPhrases[dataStatus] ?? 'Success'),
            content,
          }
        : { ...existing, content: { ...existing.content, ...content } };
  }
  if (empty || present.length === 0) {
    const emptyStatus = String(status ?? 204);
    responses[emptyStatus] ??= { description: reasonPhrases[emptyStatus] ?? 'No content' };
  }
  return { responses, problems, typeText };
}
