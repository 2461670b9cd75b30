// The typed client module, written from the OpenAPI document the build makes of the analysed
// routes (transformer/openapi/): one function per operation, grouped by its tag (the controller),
// named by its operationId, typed by the document's schemas. Plain TypeScript: interfaces and
// type literals, no inference chain for the consumer's checker to walk.
import { type DiagnosticMessage, diagnosticMessage } from '../diagnostics/diagnostic-codes.cjs';
import type { OpenApiDocument } from '../openapi/openapi-document.cjs';
import { componentTypeName, docComment, propertyKey, typeText } from './schema-types.cjs';

type Json = { readonly [key: string]: unknown };

/** A route the client cannot give a function to, with why (reported as a KILN diagnostic). */
export interface ClientProblem {
  readonly operationId: string;
  readonly message: DiagnosticMessage;
}

export interface ClientModule {
  readonly text: string;
  readonly problems: readonly ClientProblem[];
}

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** `Books` → `books`, `AdminUsers` → `adminUsers`; anything else made an identifier. */
function groupName(tag: string): string {
  const identifier = tag
    .replace(/[^A-Za-z0-9_$]+(.)?/g, (_m, next: string | undefined) => (next ?? '').toUpperCase())
    .replace(/^(?=[0-9])/, '_');
  return identifier === '' ? 'api' : identifier[0]!.toLowerCase() + identifier.slice(1);
}

/** `BooksController.get` → `get`; an `@operationId` as it is (made an identifier). */
function functionName(operationId: string): string {
  const last = operationId.slice(operationId.lastIndexOf('.') + 1);
  return last.replace(/[^A-Za-z0-9_$]/g, '_').replace(/^(?=[0-9])/, '_') || 'call';
}

function pascal(name: string): string {
  return name[0]!.toUpperCase() + name.slice(1);
}

/** A parameter's type as the client takes it: a date-time may be given as a `Date`. */
function parameterType(schema: unknown): string {
  const s = schema as Json | undefined;
  if (s?.['type'] === 'string' && s['format'] === 'date-time') return 'Date | string';
  if (s?.['type'] === 'array' && (s['items'] as Json | undefined)?.['format'] === 'date-time') return '(Date | string)[]';
  return typeText(schema, { input: true }, '    ');
}

interface Route {
  readonly group: string;
  readonly name: string;
  readonly signature: string;
  readonly operation: string;
}

function routeOf(path: string, method: string, operation: Json, problems: ClientProblem[]): Route {
  const operationId = String(operation['operationId']);
  const inputs: string[] = [];
  const places: string[] = [];
  const names = new Set<string>();
  let required = false;
  const clash = (name: string) => {
    if (names.has(name))
      problems.push({
        operationId,
        message: diagnosticMessage('clientInputNameClash', 'sameName', method.toUpperCase(), path, operationId, name),
      });
    names.add(name);
  };
  for (const parameter of (operation['parameters'] ?? []) as Json[]) {
    const name = String(parameter['name']);
    clash(name);
    const content = parameter['content'] as Record<string, { schema?: unknown }> | undefined;
    const json = content?.['application/json'] !== undefined;
    const type = json ? typeText(content!['application/json']!.schema, { input: true }, '    ') : parameterType(parameter['schema']);
    const isRequired = parameter['required'] === true;
    required ||= isRequired;
    inputs.push(`${docComment(parameter['description'], '    ')}    ${propertyKey(name)}${isRequired ? '' : '?'}: ${type};`);
    places.push(`${propertyKey(name)}: '${parameter['in']}${json ? '-json' : ''}'`);
  }
  let body: 'json' | 'multipart' | undefined;
  const requestBody = operation['requestBody'] as { required?: boolean; content?: Record<string, { schema?: unknown }> } | undefined;
  if (requestBody?.content !== undefined) {
    clash('body');
    const multipart = requestBody.content['multipart/form-data'];
    body = multipart === undefined ? 'json' : 'multipart';
    const schema = (multipart ?? requestBody.content['application/json'] ?? Object.values(requestBody.content)[0])?.schema;
    required ||= requestBody.required === true;
    inputs.push(`    body${requestBody.required === true ? '' : '?'}: ${typeText(schema, { input: true }, '    ')};`);
  }

  const answers: string[] = [];
  const errors: number[] = [];
  let raw = false;
  let events: 'json' | 'text' | undefined;
  for (const [status, response] of Object.entries((operation['responses'] ?? {}) as Record<string, Json>)) {
    const code = Number(status);
    if (!Number.isInteger(code)) continue;
    const content = response['content'] as Record<string, { schema?: unknown }> | undefined;
    // An error answer is JSON or RFC 9457 problem details (errors: 'problem+json'); the runtime parses both.
    const json = content?.['application/json'] ?? (code >= 400 ? content?.['application/problem+json'] : undefined);
    const other = content !== undefined && Object.keys(content).some((type) => type !== 'application/json');
    if (code >= 400) {
      errors.push(code);
      answers.push(`Failed<${code}, ${json === undefined ? 'unknown' : typeText(json.schema, {}, '  ')}>`);
    } else if (content?.['text/event-stream'] !== undefined) {
      // An @Sse() route: an async iterable of its events' data (x-itemSchema, OpenAPI 3.2's itemSchema).
      const data = ((content['text/event-stream'] as Json)['x-itemSchema'] as Json | undefined)?.['properties'] as Json | undefined;
      const schema = data?.['data'] as Json | undefined;
      const json = schema?.['contentMediaType'] === 'application/json';
      events = json ? 'json' : 'text';
      const item = json ? schema!['contentSchema'] : (schema ?? { type: 'string' });
      answers.push(`Ok<${code}, AsyncGenerator<${typeText(item, {}, '  ')}, void, undefined>>`);
    } else {
      raw ||= other;
      answers.push(`Ok<${code}, ${other ? 'Response' : json === undefined ? 'undefined' : typeText(json.schema, {}, '  ')}>`);
    }
  }
  const input = inputs.length === 0 ? 'input?: Record<string, never>' : `input${required ? '' : '?'}: {\n${inputs.join('\n')}\n  }`;
  const summary = [operation['summary'], operation['description']].filter((t) => typeof t === 'string').join('\n\n');
  const comment = docComment(
    [summary, `\`${method.toUpperCase()} ${path}\``, operation['deprecated'] === true ? '@deprecated' : '']
      .filter((t) => t !== '')
      .join('\n\n'),
    '  ',
  );
  const name = functionName(operationId);
  const signature = `${comment}  ${name}(${input}, init?: RequestInit): Promise<${answers.join(' | ') || 'Ok<number, unknown>'}>;`;
  const fields = [`method: '${method.toUpperCase()}'`, `path: ${JSON.stringify(path)}`];
  if (places.length > 0) fields.push(`parameters: { ${places.join(', ')} }`);
  if (body !== undefined) fields.push(`body: '${body}'`);
  if (raw) fields.push('raw: true');
  if (events !== undefined) fields.push(`events: '${events}'`);
  if (errors.length > 0) fields.push(`errors: [${errors.join(', ')}]`);
  const tags = operation['tags'] as string[] | undefined;
  return { group: groupName(tags?.[0] ?? 'api'), name, signature, operation: `{ ${fields.join(', ')} }` };
}

/**
 * The client module's text: the document's component schemas as exported types, one interface
 * per controller, the `Client` interface, and `createClient`, which binds each function to the
 * runtime of `@kiln/core/client` (`runtimeModule`).
 */
export function writeClientModule(document: OpenApiDocument, runtimeModule = '@kiln/core/client'): ClientModule {
  const problems: ClientProblem[] = [];
  const groups = new Map<string, Route[]>();
  for (const [path, item] of Object.entries((document['paths'] ?? {}) as Record<string, Record<string, Json>>)) {
    for (const method of methods) {
      const operation = item[method];
      if (operation === undefined) continue;
      const route = routeOf(path, method, operation, problems);
      const group = groups.get(route.group) ?? [];
      const first = group.find((r) => r.name === route.name);
      if (first !== undefined) {
        problems.push({
          operationId: String(operation['operationId']),
          message: diagnosticMessage(
            'clientFunctionNameClash',
            'sameFunction',
            method.toUpperCase(),
            path,
            String(operation['operationId']),
            `${route.group}.${route.name}`,
          ),
        });
        continue;
      }
      group.push(route);
      groups.set(route.group, group);
    }
  }

  const out: string[] = [];
  const info = document.info;
  out.push(
    `// The typed client of ${info.title} ${info.version}, written by Kiln's build (the \`client\` option) from`,
    '// the routes it compiled: every build writes it again, so do not edit it. Docs: guide/typed-client.md',
    `import { bindOperations, type ClientOptions, type Failed, type FetchFunction, type Ok, type Operation } from '${runtimeModule}';`,
    '',
  );
  const schemas = ((document['components'] as Json | undefined)?.['schemas'] ?? {}) as Record<string, Json>;
  for (const [name, schema] of Object.entries(schemas)) {
    out.push(`${docComment(schema['description'], '')}export type ${componentTypeName(name)} = ${typeText(schema)};`, '');
  }
  const clientMembers: string[] = [];
  const table: string[] = [];
  for (const [group, routes] of groups) {
    const interfaceName = `${pascal(group)}Routes`;
    const tag = ((document['tags'] ?? []) as Json[]).find((t) => groupName(String(t['name'])) === group);
    clientMembers.push(`${docComment(tag?.['description'], '  ')}  readonly ${group}: ${interfaceName};`);
    out.push(`export interface ${interfaceName} {`, routes.map((r) => r.signature).join('\n'), '}', '');
    table.push(`  ${group}: {\n${routes.map((r) => `    ${r.name}: ${r.operation},`).join('\n')}\n  },`);
  }
  out.push(
    '/** Every route of the API, grouped by controller: `api.books.get({ id: 42 })`. */',
    'export interface Client {',
    ...clientMembers,
    '}',
    '',
    'const operations: Record<string, Record<string, Operation>> = {',
    ...table,
    '};',
    '',
    '/**',
    ' * A client of the API. `options` is a base URL, default headers, a custom `fetch` and default',
    ' * `RequestInit`s, or just a fetch function: `createClient(app.fetch)` calls a Kiln app in process.',
    ' */',
    'export function createClient(options?: ClientOptions | FetchFunction): Client {',
    '  return bindOperations(operations, options) as Client;',
    '}',
    '',
  );
  return { text: out.join('\n'), problems };
}
