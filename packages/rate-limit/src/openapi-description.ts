// What a limiter adds to each route it guards, for the OpenAPI document `createServer({ docs })`
// serves: its 429 and its headers. Set under Kiln's global `Symbol.for('kiln.openapi')` key, so this
// package needs nothing from @kiln/core at run time.
import type { MiddlewareOpenApi } from '@kiln/core';

const kOpenApi = Symbol.for('kiln.openapi');

export interface LimiterFacts {
  /** `undefined`: a function of the request (tiers). */
  readonly max: number | undefined;
  readonly windowMs: number;
  /** The header mode (rate-limit-headers.ts): which headers every response carries. */
  readonly standardHeaders: boolean | 'draft-6' | 'draft-7' | 'draft-8';
  readonly legacyHeaders: boolean;
  /** A custom `handler` answers the 429 itself: its body is not known. */
  readonly customHandler: boolean;
}

const integer = { type: 'integer', minimum: 0 };

/** The OpenAPI description of a limiter with these options. */
export function limiterDescription(facts: LimiterFacts): MiddlewareOpenApi {
  const text = { type: 'string' };
  const headers: Record<string, object> = {};
  const mode = facts.standardHeaders;
  if (mode === 'draft-6' || mode === 'draft-7' || mode === 'draft-8') {
    headers['RateLimit-Policy'] = { description: 'The quota policy (IETF RateLimit header fields, ' + mode + ')', schema: text };
  }
  if (mode === true || mode === 'draft-6') {
    headers['RateLimit-Limit'] = { description: 'Requests allowed in the window', schema: integer };
    headers['RateLimit-Remaining'] = { description: 'Requests left in the current window', schema: integer };
    headers['RateLimit-Reset'] = {
      description:
        mode === true
          ? 'Unix time, in seconds, when the oldest counted request leaves the window'
          : 'Seconds until the oldest counted request leaves the window',
      schema: integer,
    };
  } else if (mode === 'draft-7' || mode === 'draft-8') {
    headers.RateLimit = { description: 'Limit, remaining requests and reset of the current window', schema: text };
  }
  if (facts.legacyHeaders) {
    headers['X-RateLimit-Limit'] = { description: 'Requests allowed in the window', schema: integer };
    headers['X-RateLimit-Remaining'] = { description: 'Requests left in the current window', schema: integer };
    headers['X-RateLimit-Reset'] = {
      description: 'Unix time, in seconds, when the oldest counted request leaves the window',
      schema: integer,
    };
  }
  const retryAfter = mode !== false || facts.legacyHeaders;
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
        description: `Too Many Requests: more than ${facts.max ?? "this client's limit of"} requests in ${facts.windowMs} ms from this client`,
        ...(retryAfter ? { headers: { 'Retry-After': { description: 'Seconds until a request is allowed again', schema: integer } } } : {}),
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
