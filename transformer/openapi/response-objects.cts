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

/** A response answered with Kiln's error body. */
export function errorResponse(status: string, description: string): ResponseObject {
  return {
    description: description || reasonPhrases[status] || `Status ${status}`,
    content: { 'application/json': { schema: { $ref: `#/components/schemas/${errorBodyComponent}` } } },
  };
}

/**
 * A declared error (`@throws {HttpError<404, { id: number }>}`): Kiln's error body with `data`
 * of the declared type (required), or the plain error body when the tag gives no data type.
 */
export function declaredErrorResponse(status: string, description: string, data: JsonSchema | PendingSchema | undefined): ResponseObject {
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
  const signature = tk.checker.getSignatureFromDeclaration(declaration);
  const returned = signature === undefined ? tk.checker.getAnyType() : signature.getReturnType();
  const awaited = tk.checker.getAwaitedType(returned) ?? returned;
  const typeText = tk.checker.typeToString(awaited);
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
