// RFC 9457 problem details: the error body of a server created with `errors: 'problem+json'`.
import { reasonPhrase } from './reason-phrase.js';

/** RFC 9457's media type. It has no parameters (§6.1): JSON is UTF-8 anyway. */
export const problemContentType = 'application/problem+json';

/** The members RFC 9457 defines: a member of an HttpError's data with one of these names is left out. */
export const problemMemberNames: ReadonlySet<string> = new Set(['type', 'title', 'status', 'detail', 'instance']);

/** What an answer's problem details are made of, beyond the status and the message. */
export interface ProblemParts {
  readonly type?: string | undefined;
  readonly title?: string | undefined;
  /** The occurrence: the request's path unless the HttpError names another. */
  readonly instance?: string | undefined;
}

function isMemberObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `{ type, title, status, detail, instance?, ...extensions }` as JSON text. `data` is read as JSON
 * reads it (its `toJSON`, own enumerable members): an object's members become extension members
 * (the five RFC names excepted: Kiln's win), any other JSON value the `data` member. `type`
 * defaults to `about:blank`, which RFC 9457 §4.2.1 gives a problem that means its status alone,
 * and `title` to the status's reason phrase, as that section asks. Throws when `data` cannot be
 * written as JSON (the caller answers without it).
 */
export function problemDetailsBody(status: number, detail: string, data?: unknown, parts?: ProblemParts): string {
  // A null prototype: a member named __proto__ is a member, not the object's prototype.
  const body: Record<string, unknown> = Object.create(null);
  body['type'] = parts?.type ?? 'about:blank';
  body['title'] = parts?.title ?? reasonPhrase(status) ?? 'Error';
  body['status'] = status;
  body['detail'] = detail;
  if (parts?.instance !== undefined && parts.instance !== '') body['instance'] = parts.instance;
  if (data !== undefined) {
    const text = JSON.stringify(data);
    // undefined: a function or symbol, which JSON leaves out
    if (text !== undefined) {
      const json: unknown = JSON.parse(text);
      if (isMemberObject(json)) {
        for (const name of Object.keys(json)) if (!problemMemberNames.has(name)) body[name] = json[name];
      } else body['data'] = json;
    }
  }
  return JSON.stringify(body);
}
