// Holds a running app to the OpenAPI document it serves: every answer is checked against the
// document's response for its operation and status (ajv, JSON Schema 2020-12, as OpenAPI 3.1 says),
// and the requests the document calls invalid are made and must get the 400 it describes.
import * as assert from 'uvu/assert';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { validate as validateOpenApi, compileErrors } from '@readme/openapi-parser';
import type { Reply } from '../../support/server.js';

type Json = Record<string, any>;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void;
const documentId = 'https://kiln.test/openapi.json';
const methods = ['get', 'put', 'post', 'delete', 'patch'];

/** One operation of the document. */
export interface Operation {
  readonly method: string;
  /** The OpenAPI path (`/books/{id}`). */
  readonly path: string;
  readonly operation: Json;
}

/** A request to make, and the status it must get. */
export interface Sample {
  readonly path: string;
  readonly status: number;
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | FormData;
}

/** Fails with the independent validator's own words when the document is not valid OpenAPI 3.1. */
export async function assertValidOpenApi(document: Json): Promise<void> {
  assert.is(document.openapi, '3.1.0');
  const result = await validateOpenApi(structuredClone(document) as never);
  assert.ok(result.valid, `@readme/openapi-parser rejects the document:\n${result.valid ? '' : compileErrors(result)}`);
}

export function operationsOf(document: Json): Operation[] {
  return Object.entries(document.paths as Json).flatMap(([path, item]) =>
    methods
      .filter((m) => (item as Json)[m] !== undefined)
      .map((method) => ({ method: method.toUpperCase(), path, operation: (item as Json)[method] })),
  );
}

/** `/books/{id}` against a concrete path: the operation a request is for. */
function matches(template: string, path: string): boolean {
  const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
  return pattern.test(path);
}

export class Contract {
  readonly document: Json;
  readonly #ajv: Ajv2020;
  readonly #validators = new Map<object, ValidateFunction>();

  constructor(document: Json) {
    this.document = document;
    this.#ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.#ajv);
    this.#ajv.addSchema({ $id: documentId, components: document.components ?? {} });
  }

  /**
   * Sends each operation's sample requests (every operation must have at least one, under its
   * operationId) and holds each answer to its status and to the document.
   */
  async assertSamplesAnswered(
    samples: Readonly<Record<string, readonly Sample[]>>,
    send: (sample: Sample) => Promise<Reply>,
  ): Promise<void> {
    for (const operation of operationsOf(this.document)) {
      const list = samples[operation.operation.operationId];
      assert.ok(list !== undefined && list.length > 0, `no sample request for ${operation.operation.operationId}`);
      for (const sample of list!) {
        const reply = await send(sample);
        const what = `${sample.method ?? 'GET'} ${sample.path}`;
        assert.is(reply.status, sample.status, `${what}: ${reply.text}`);
        assert.is(this.operationFor(sample.method ?? 'GET', sample.path).path, operation.path, `${what} is a request of ${operation.path}`);
        this.assertAnswer(operation, reply, what);
      }
    }
  }

  /**
   * Sends the invalid requests derived from each operation's first sample (but those of `skip`):
   * each must get a 400 the document describes. Returns how many were sent.
   */
  async assertInvalidRequestsRefused(
    samples: Readonly<Record<string, readonly Sample[]>>,
    send: (sample: Sample) => Promise<Reply>,
    skip: readonly string[] = [],
  ): Promise<number> {
    let made = 0;
    for (const operation of operationsOf(this.document)) {
      if (skip.includes(operation.operation.operationId)) continue;
      const valid = samples[operation.operation.operationId]![0]!;
      for (const { sample, why } of this.invalidRequests(operation, valid)) {
        const reply = await send(sample);
        const what = `${operation.operation.operationId} with ${why} (${sample.method ?? 'GET'} ${sample.path})`;
        assert.is(reply.status, 400, `${what}: ${reply.text}`);
        assert.ok(operation.operation.responses['400'], `${what}: the document describes no 400`);
        this.assertAnswer(operation, reply, what);
        made++;
      }
    }
    return made;
  }

  /** The operation a request is for; static paths win over parametric ones, as in Kiln's router. */
  operationFor(method: string, path: string): Operation {
    const pathname = path.split('?')[0]!;
    const candidates = operationsOf(this.document).filter((o) => o.method === method && matches(o.path, pathname));
    const found = candidates.find((o) => !o.path.includes('{')) ?? candidates[0];
    assert.ok(found, `the document has no operation for ${method} ${pathname}`);
    return found!;
  }

  #validator(schema: object): ValidateFunction {
    let validator = this.#validators.get(schema);
    if (validator === undefined) {
      // The schema's `#/components/...` references point into the document added above.
      const rebased = JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, `"${documentId}#/components/`));
      validator = this.#ajv.compile(rebased);
      this.#validators.set(schema, validator);
    }
    return validator;
  }

  /**
   * Asserts that an answer is one the document describes for its operation: the status is listed,
   * the content type is one of the response's media types, a JSON body matches its schema, an
   * empty response has no body, and every header the response declares is present.
   */
  assertAnswer(operation: Operation, reply: Reply, what: string): void {
    const response: Json | undefined = operation.operation.responses?.[String(reply.status)] ?? operation.operation.responses?.default;
    assert.ok(
      response,
      `${what}: status ${reply.status} is not in the document's responses for ${operation.method} ${operation.path} (${Object.keys(operation.operation.responses ?? {}).join(', ')}); body ${reply.text}`,
    );
    const content: Json | undefined = response!.content;
    const type = reply.headers.get('content-type')?.split(';')[0]?.trim();
    if (content === undefined) {
      assert.is(reply.text, '', `${what}: the document says ${reply.status} has no content`);
    } else {
      assert.ok(type !== undefined, `${what}: no content-type`);
      const mediaType = content[type!] ?? content[`${type!.split('/')[0]}/*`] ?? content['*/*'];
      assert.ok(mediaType, `${what}: content-type ${type} is not among ${Object.keys(content).join(', ')}`);
      if ((type === 'application/json' || type === 'application/problem+json') && mediaType.schema !== undefined) {
        const validator = this.#validator(mediaType.schema);
        const ok = validator(JSON.parse(reply.text));
        assert.ok(
          ok,
          `${what}: the ${reply.status} body does not match the document's schema: ${this.#ajv.errorsText(validator.errors)}\nbody: ${reply.text}`,
        );
      }
    }
    for (const header of Object.keys(response!.headers ?? {})) {
      assert.ok(reply.headers.has(header), `${what}: the document declares header ${header} on ${reply.status}`);
    }
  }

  /**
   * Requests the document says are invalid, built from a valid sample of the operation: each
   * parameter given a value its schema refuses, each required parameter left out, and for a JSON
   * body with required properties an empty object and malformed JSON.
   */
  invalidRequests(operation: Operation, sample: Sample): { readonly sample: Sample; readonly why: string }[] {
    const found: { sample: Sample; why: string }[] = [];
    const url = new URL(sample.path, 'http://x');
    for (const parameter of (operation.operation.parameters ?? []) as Json[]) {
      const schema: Json = parameter.schema ?? parameter.content?.['application/json']?.schema ?? {};
      const bad = badValue(schema, parameter.content !== undefined);
      if (bad !== undefined)
        found.push({
          sample: withParameter(sample, url, operation.path, parameter, bad),
          why: `${parameter.in} ${parameter.name} = ${JSON.stringify(bad)}`,
        });
      if (parameter.required && parameter.in !== 'path')
        found.push({
          sample: withParameter(sample, url, operation.path, parameter, undefined),
          why: `${parameter.in} ${parameter.name} left out`,
        });
    }
    const json = operation.operation.requestBody?.content?.['application/json']?.schema as Json | undefined;
    if (json !== undefined) {
      const resolved = json.$ref === undefined ? json : this.document.components.schemas[String(json.$ref).split('/').pop()!];
      const headers = { ...sample.headers, 'content-type': 'application/json' };
      if ((resolved?.required ?? []).length > 0)
        found.push({ sample: { ...sample, headers, body: '{}' }, why: 'a body without its required properties' });
      if (operation.operation.requestBody.required || Object.keys(json).length > 0)
        found.push({ sample: { ...sample, headers, body: '{"unterminated' }, why: 'malformed JSON' });
    }
    return found;
  }
}

/** A value the schema refuses, as request text (or a list of texts for an array). */
function badValue(schema: Json, json: boolean): string | string[] | undefined {
  if (json) return '{not json';
  if (schema.type === 'array') {
    const item = badValue(schema.items ?? {}, false);
    return typeof item === 'string' ? ['1', item] : undefined;
  }
  if (Array.isArray(schema.enum)) return 'not-one-of-them';
  if (schema.type === 'number' || schema.type === 'integer') return 'NaN-please';
  if (schema.format === 'date-time') return 'not-a-date';
  return undefined;
}

function withParameter(sample: Sample, base: URL, template: string, parameter: Json, value: string | string[] | undefined): Sample {
  const url = new URL(base.href);
  const headers = { ...sample.headers };
  if (parameter.in === 'query') {
    url.searchParams.delete(parameter.name);
    for (const item of value === undefined ? [] : [value].flat()) url.searchParams.append(parameter.name, item);
  } else if (parameter.in === 'header') {
    for (const key of Object.keys(headers)) if (key.toLowerCase() === parameter.name) delete headers[key];
    if (value !== undefined) headers[parameter.name] = [value].flat().join(', ');
  } else if (parameter.in === 'cookie') {
    const sent = (headers['cookie'] ?? '').split('; ').filter((pair) => pair !== '' && !pair.startsWith(`${parameter.name}=`));
    if (value !== undefined) sent.push(`${parameter.name}=${encodeURIComponent([value].flat()[0]!)}`);
    headers['cookie'] = sent.join('; ');
  } else if (parameter.in === 'path') {
    const index = template.split('/').indexOf(`{${parameter.name}}`);
    const segments = url.pathname.split('/');
    segments[index] = encodeURIComponent([value].flat()[0] ?? '');
    url.pathname = segments.join('/');
  }
  return { ...sample, path: url.pathname + url.search, headers };
}
