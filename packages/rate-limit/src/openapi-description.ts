// What a limiter adds to each route it guards, for the OpenAPI document `createServer({ docs })`
// serves: its 429 and its headers. Set under Kiln's global `Symbol.for('kiln.openapi')` key, so this
// package needs nothing from @kiln/core at run time.
import type { MiddlewareOpenApi } from '@kiln/core';

const kOpenApi = Symbol.for('kiln.openapi');

export interface LimiterFacts {
  readonly max: number;
  readonly windowMs: number;
  readonly standardHeaders: boolean;
  /** A custom `handler` answers the 429 itself: its body is not known. */
  readonly customHandler: boolean;
}

const integer = { type: 'integer', minimum: 0 };

/** The OpenAPI description of a limiter with these options. */
export function limiterDescription(facts: LimiterFacts): MiddlewareOpenApi {
  const headers: Record<string, object> = facts.standardHeaders
    ? {
        'RateLimit-Limit': { description: 'Requests allowed in the window', schema: integer },
        'RateLimit-Remaining': { description: 'Requests left in the current window', schema: integer },
        'RateLimit-Reset': { description: 'Unix time, in seconds, when the oldest counted request leaves the window', schema: integer },
      }
    : {};
  const body = facts.customHandler
    ? { '*/*': {} }
    : {
        'application/json': {
          schema: {
            type: 'object',
            properties: { error: { const: 'Too Many Requests' }, message: { type: 'string' } },
            required: ['error', 'message'],
            additionalProperties: false,
          },
        },
      };
  return {
    headers,
    responses: {
      429: {
        description: `Too Many Requests: more than ${facts.max} requests in ${facts.windowMs} ms from this client`,
        ...(facts.standardHeaders ? { headers: { 'Retry-After': { description: 'Seconds until a request is allowed again', schema: integer } } } : {}),
        content: body,
      },
    },
  };
}

/** Returns the middleware with its description attached. */
export function withOpenApiDescription<M extends Function>(middleware: M, facts: LimiterFacts): M {
  Object.defineProperty(middleware, kOpenApi, { value: limiterDescription(facts), configurable: true });
  return middleware;
}
