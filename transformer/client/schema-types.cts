// JSON schemas of the OpenAPI document written back as TypeScript type text, for the client
// module: the document says what the server sends (a `Date` is a `date-time` string, only the
// projected properties), so the client's types are read from it, not from the app's own types.

type Schema = { readonly [keyword: string]: unknown };

/** The TypeScript name of a component (`Legacy.Address` → `Legacy_Address`); globals the client module uses are kept free. */
export function componentTypeName(name: string): string {
  const identifier = name.replace(/[^A-Za-z0-9_$]/g, '_').replace(/^(?=[0-9])/, '_');
  return reservedNames.has(identifier) ? `${identifier}_` : identifier;
}

const reservedNames = new Set([
  'Array',
  'Blob',
  'Date',
  'File',
  'FormData',
  'Headers',
  'Promise',
  'Record',
  'Request',
  'RequestInit',
  'Response',
  'Kiln',
]);

const identifierName = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property key as written in a type literal: bare when it is an identifier, else quoted. */
export function propertyKey(name: string): string {
  return identifierName.test(name) ? name : JSON.stringify(name);
}

/** A `/** ... *\/` comment of a description, indented; empty when there is none. */
export function docComment(description: unknown, indent: string): string {
  if (typeof description !== 'string' || description.trim() === '') return '';
  const lines = description.replace(/\*\//g, '*\\/').trim().split('\n');
  return lines.length === 1
    ? `${indent}/** ${lines[0]} */\n`
    : `${indent}/**\n${lines.map((l) => `${indent} * ${l}`.trimEnd()).join('\n')}\n${indent} */\n`;
}

export interface TypeTextOptions {
  /** A request's input: Kiln reads it, so a JSON-parsed value may be anything JSON gives. */
  readonly input?: boolean;
}

/** The type text of a schema; `indent` is the indentation of the line the type starts on. */
export function typeText(schema: unknown, options: TypeTextOptions = {}, indent = ''): string {
  if (typeof schema !== 'object' || schema === null) return 'unknown';
  const s = schema as Schema;
  if (typeof s['$ref'] === 'string') return componentTypeName(s['$ref'].replace(/^#\/components\/schemas\//, ''));
  if ('const' in s) return JSON.stringify(s['const']);
  if (Array.isArray(s['enum'])) return s['enum'].map((v) => JSON.stringify(v)).join(' | ') || 'never';
  const union = (s['oneOf'] ?? s['anyOf']) as unknown[] | undefined;
  if (Array.isArray(union)) return union.map((member) => parenthesised(typeText(member, options, indent))).join(' | ') || 'never';
  if (Array.isArray(s['allOf']))
    return s['allOf'].map((member) => parenthesised(typeText(member, options, indent))).join(' & ') || 'unknown';
  const type = s['type'];
  if (Array.isArray(type)) return type.map((t) => parenthesised(typeText({ ...s, type: t }, options, indent))).join(' | ');
  switch (type) {
    case 'string':
      // A multipart body's file (only request bodies have one): a `File`, or any `Blob`.
      return s['format'] === 'binary' ? 'Blob' : 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return arrayText(s, options, indent);
    case 'object':
      return objectText(s, options, indent);
    default:
      return 'unknown';
  }
}

function parenthesised(text: string): string {
  return /^[\w$."'[\]<>]+$/.test(text) || text.startsWith('{') ? text : `(${text})`;
}

function arrayText(s: Schema, options: TypeTextOptions, indent: string): string {
  if (Array.isArray(s['prefixItems'])) {
    const items = s['prefixItems'].map((item) => typeText(item, options, indent));
    const minItems = typeof s['minItems'] === 'number' ? s['minItems'] : items.length;
    const rest = s['items'] === false || s['items'] === undefined ? [] : [`...${parenthesised(typeText(s['items'], options, indent))}[]`];
    return `[${[...items.map((item, i) => (i < minItems ? item : `${item}?`)), ...rest].join(', ')}]`;
  }
  if (s['maxItems'] === 0) return '[]';
  return `${parenthesised(typeText(s['items'], options, indent))}[]`;
}

function objectText(s: Schema, options: TypeTextOptions, indent: string): string {
  const properties = (s['properties'] ?? {}) as Record<string, unknown>;
  const required = new Set((s['required'] ?? []) as string[]);
  const inner = `${indent}  `;
  const members = Object.entries(properties).map(
    ([name, property]) =>
      `${docComment((property as Schema)?.['description'], inner)}${inner}${propertyKey(name)}${required.has(name) ? '' : '?'}: ${typeText(property, options, inner)};`,
  );
  const additional = s['additionalProperties'];
  if (additional !== false && (additional !== undefined || members.length === 0)) {
    // Named properties must fit the index signature: with both, the index holds any value.
    const value = additional === undefined || additional === true || members.length > 0 ? 'unknown' : typeText(additional, options, inner);
    members.push(`${inner}[key: string]: ${value};`);
  }
  return members.length === 0 ? '{}' : `{\n${members.join('\n')}\n${indent}}`;
}
