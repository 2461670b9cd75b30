// The success response of an `@Sse()` route: `text/event-stream`. OpenAPI 3.1 has no way to say
// what each event holds, so the media type's schema is the stream as a string and its
// `x-itemSchema` describes one event as OpenAPI 3.2's `itemSchema` does: `data` (JSON text whose
// `contentSchema` is the route's event type, or the text itself for a stream of strings), and
// the `event`, `id` and `retry` fields `sseEvent()` may set.
import type * as ts from 'typescript';
import { dataMembers, iteratedType } from '../analyse/event-stream-type.cjs';
import type { Toolkit } from '../toolkit.cjs';
import type { JsonSchema, ResponseObject } from './openapi-types.cjs';
import { handlerResult, type SuccessResponses } from './response-objects.cjs';
import { isUndescribable, type PendingSchema, type TypeSchemas } from './type-schemas.cjs';

export const eventStreamMediaType = 'text/event-stream';

export function eventStreamResponses(
  tk: Toolkit,
  schemas: TypeSchemas,
  declaration: ts.MethodDeclaration,
  status: number | undefined,
): SuccessResponses {
  const { TypeFlags } = tk.ts;
  const { awaited, typeText } = handlerResult(tk, declaration);
  const element = iteratedType(tk, awaited);
  const problems: string[] = [];
  let data: JsonSchema | PendingSchema = {};
  if (element !== undefined && !(element.flags & (TypeFlags.Any | TypeFlags.Unknown))) {
    const members = dataMembers(tk, element).filter((member) => !(member.flags & (TypeFlags.Undefined | TypeFlags.Void)));
    const text = members.length > 0 && members.every((member) => member.flags & TypeFlags.StringLike);
    const added = members.map((member) => schemas.add(member));
    for (const answer of added) if (isUndescribable(answer)) problems.push(...answer.problems);
    if (problems.length === 0 && added.length > 0) {
      const contentSchema = added.length === 1 ? (added[0] as JsonSchema | PendingSchema) : { oneOf: added };
      data = text ? contentSchema : { type: 'string', contentMediaType: 'application/json', contentSchema };
    }
  }
  const item: JsonSchema = {
    type: 'object',
    properties: {
      data,
      event: { type: 'string' },
      id: { type: 'string' },
      retry: { type: 'integer', minimum: 0 },
    },
  };
  const code = String(status ?? 200);
  const response: ResponseObject = {
    description: 'A stream of server-sent events, one per value the handler yields (x-itemSchema: one event)',
    content: { [eventStreamMediaType]: { schema: { type: 'string' }, 'x-itemSchema': item } },
  };
  return { responses: { [code]: response }, problems, typeText };
}
