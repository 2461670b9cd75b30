// The served document of a server that answers errors as problem details (`errors:
// 'problem+json'`): the build wrote its own error responses so, and what only the runtime adds (a
// middleware's 429 or 401, the health routes' 503) is described in the default error body by
// whoever wrote it, so it is rewritten here; and a document the build wrote for the other format
// is refused (KILN060).
import { kilnError } from '../kiln-error.js';
import type { ErrorsOption } from '../response/error-format.js';

type Json = Record<string, any>;

/** The components the build writes for each format (transformer/openapi/response-objects.cts). */
const jsonComponent = 'KilnErrorBody';
const problemComponent = 'KilnProblemDetails';

/** The error format the build wrote the document for; `undefined` for a document Kiln did not write. */
function documentFormat(document: Json): ErrorsOption | undefined {
  const schemas = document.components?.schemas as Json | undefined;
  if (schemas?.[problemComponent] !== undefined) return 'problem+json';
  if (schemas?.[jsonComponent] !== undefined) return 'json';
  return undefined;
}

/** KILN060 when the document describes another error format than the server answers with. */
export function assertErrorFormat(document: Json, errors: ErrorsOption): void {
  const described = documentFormat(document);
  if (described !== undefined && described !== errors) throw kilnError('KILN060', 'formatMismatch', `'${described}'`, errors);
}

/** True for content that is the default error body (`{ error, message }`), however its writer spelt the schema. */
function isErrorBody(content: Json | undefined): boolean {
  const schema = content?.['application/json']?.schema as Json | undefined;
  if (schema?.$ref === `#/components/schemas/${jsonComponent}`) return true;
  const properties = schema?.properties as Json | undefined;
  return properties?.error !== undefined && properties?.message !== undefined;
}

/** An error response of the default body as problem details; any other response as it is. */
export function asProblemResponse(status: string, response: Json): Json {
  if (Number(status) < 400 || !isErrorBody(response.content)) return response;
  return { ...response, content: { 'application/problem+json': { schema: { $ref: `#/components/schemas/${problemComponent}` } } } };
}

/** Every operation's error responses of the default body, in `paths`, as problem details. */
export function pathsAsProblems(paths: Json): Json {
  const rewritten: Json = {};
  for (const [path, item] of Object.entries(paths)) {
    rewritten[path] = Object.fromEntries(
      Object.entries(item as Json).map(([method, operation]) => {
        const responses = (operation as Json)?.responses as Json | undefined;
        if (responses === undefined) return [method, operation];
        const converted = Object.fromEntries(
          Object.entries(responses).map(([status, r]) => [status, asProblemResponse(status, r as Json)]),
        );
        return [method, { ...(operation as Json), responses: converted }];
      }),
    );
  }
  return rewritten;
}
