import type { Conversion, FileModel, ItemConversion, MethodModel, ParameterCheck, ParameterModel } from '../analyse/model.cjs';
import { BodyValidators } from './validator-emitter.cjs';
import { binderPrefix, helpersNamespace as helpers, noParametersBinder, valueListName } from './generated-names.cjs';
import { emitDependencyLists } from './injection-emitter.cjs';

export { helpers };

/** A TypeScript single-quoted string literal. */
function quote(text: string): string {
  return `'${JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

/** Enum value lists become module constants, so a request allocates no array to check against. */
class ValueLists {
  readonly #names = new Map<string, string>();

  nameOf(values: readonly (string | number)[]): string {
    const literal = `[${values.map((v) => (typeof v === 'string' ? quote(v) : String(v))).join(', ')}]`;
    let name = this.#names.get(literal);
    if (name === undefined) {
      name = valueListName(this.#names.size);
      this.#names.set(literal, name);
    }
    return name;
  }

  declarations(): string[] {
    return [...this.#names].map(([literal, name]) => `const ${name} = ${literal} as const;`);
  }

  names(): string[] {
    return [...this.#names.values()];
  }
}

/** The expression that reads a parameter's raw value from its source. */
function readExpression(parameter: ParameterModel): string {
  const key = quote(parameter.key);
  switch (parameter.source) {
    case 'param':
      return `req.params[${key}]`;
    case 'query':
      return `req.query[${key}]`;
    case 'header':
      return `req.headers.get(${key})`;
    case 'cookie':
      return `req.cookies[${key}]`;
    case 'body':
      return parameter.key === '' ? 'body' : `${helpers}.bodyField(body, ${key})`;
    case 'request':
      return parameter.key === '' ? 'req' : `req[${key}]`;
    case 'inject':
      return `injected[${parameter.key}]`;
  }
}

function itemArrayExpression(item: ItemConversion, list: string, key: string, values: ValueLists): string {
  switch (item.kind) {
    case 'text':
      return list;
    case 'boolean':
      return `${helpers}.toBooleanArray(${list})`;
    case 'number':
      return `${helpers}.toNumberArray(${list}, ${key}, strict)`;
    case 'date':
      return `${helpers}.toDateArray(${list}, ${key}, strict)`;
    case 'json':
      return `${helpers}.toJsonArray(${list}, ${key}, strict)`;
    case 'enum':
      return `${helpers}.toEnumArray(${list}, ${key}, strict, ${values.nameOf(item.values)})`;
  }
}

// Body parameters pass through as parsed (`raw`). Typed body validation (typia) belongs here as a
// conversion of its own, so the binder calls the validator generated for the declared type.
function convertExpression(parameter: ParameterModel, conversion: Conversion, values: ValueLists, validators: BodyValidators): string {
  const key = quote(parameter.key);
  let read = readExpression(parameter);
  if (parameter.required) {
    read =
      parameter.source === 'body' && parameter.key === ''
        ? `${helpers}.requiredBody(body, strict)`
        : `${helpers}.required(${read}, ${key}, strict)`;
  }
  if (parameter.bodyScalar !== undefined) return bodyScalarExpression(parameter.bodyScalar, read, key, values);
  if (parameter.check !== undefined)
    return checkedExpression(
      parameter,
      parameter.check,
      conversion,
      read,
      key,
      validators.nameOf(parameter.check.typeQuery, parameter.check.site),
    );
  switch (conversion.kind) {
    case 'raw':
      return parameter.source === 'header' ? `${helpers}.toText(${read})` : read;
    case 'text':
      return parameter.source === 'param' ? read : `${helpers}.toText(${read})`;
    case 'boolean':
      return `${helpers}.toBoolean(${read})`;
    case 'number':
      return `${helpers}.toNumber(${read}, ${key}, strict)`;
    case 'date':
      return `${helpers}.toDate(${read}, ${key}, strict)`;
    case 'json':
      return `${helpers}.toJson(${read}, ${key}, strict)`;
    case 'enum':
      return `${helpers}.toEnum(${read}, ${key}, strict, ${values.nameOf(conversion.values)})`;
    case 'array':
      return itemArrayExpression(conversion.item, listExpression(parameter, read), key, values);
  }
}

/**
 * A tagged scalar (or tagged array items) converted as its base type, then checked by its typia
 * validator under strictValidation; an object (or object items) JSON-parsed, then checked in both
 * modes. Only these parameters call these helpers: every other binding is written as before.
 */
function checkedExpression(
  parameter: ParameterModel,
  check: ParameterCheck,
  conversion: Conversion,
  read: string,
  key: string,
  validator: string,
): string {
  const item = conversion.kind === 'array' ? conversion.item : conversion;
  if (check.kind === 'type') {
    if (conversion.kind !== 'array') return `${helpers}.toCheckedJson(${read}, ${key}, strict, ${validator})`;
    return `${helpers}.toCheckedJsonArray(${listExpression(parameter, read)}, ${key}, strict, ${validator})`;
  }
  const parse = item.kind === 'number' ? `${helpers}.parseNumber` : `${helpers}.parseText`;
  if (conversion.kind !== 'array') return `${helpers}.toTagged(${read}, ${key}, strict, ${parse}, ${validator})`;
  return `${helpers}.toTaggedArray(${listExpression(parameter, read)}, ${key}, strict, ${parse}, ${validator})`;
}

/** A scalar `@Body` field checked by Kiln's own rules (src/binding/body-scalar.ts); `''` names the whole body. */
function bodyScalarExpression(item: ItemConversion, read: string, key: string, values: ValueLists): string {
  switch (item.kind) {
    case 'number':
      return `${helpers}.bodyNumber(req, ${read}, ${key}, strict)`;
    case 'boolean':
      return `${helpers}.bodyBoolean(req, ${read}, ${key}, strict)`;
    case 'enum':
      return `${helpers}.bodyEnum(req, ${read}, ${key}, strict, ${values.nameOf(item.values)})`;
    default:
      return `${helpers}.bodyText(req, ${read}, ${key}, strict)`;
  }
}

function listExpression(parameter: ParameterModel, read: string): string {
  return parameter.source === 'header' ? `${helpers}.splitHeader(${read})` : `${helpers}.listOf(${read})`;
}

function describeParameter(parameter: ParameterModel): string {
  const from =
    parameter.source === 'request'
      ? parameter.key === ''
        ? '@Req()'
        : `request.${parameter.key}`
      : parameter.source === 'inject'
        ? 'injected at start-up'
        : `${parameter.source}${parameter.key === '' ? '' : ` '${parameter.key}'`}`;
  return `${parameter.parameterName}: ${parameter.typeText} ← ${from}`.replace(/\*\//g, '* /');
}

function binderName(method: MethodModel, taken: Set<string>): string {
  const base = `${binderPrefix}${method.className}_${method.methodName}`.replace(/[^\w$]/g, '_');
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
  taken.add(name);
  return name;
}

/**
 * The source of one binder: one straight-line function per route handler or middleware `use`.
 * Untyped (`typed` false), it is plain JavaScript: the emit phase prints it without type-checking it.
 */
function binderSource(
  method: MethodModel,
  name: string,
  file: FileModel,
  values: ValueLists,
  validators: BodyValidators,
  typed: boolean,
): string {
  const readsBody = method.parameters.some((p) => p?.source === 'body');
  // Injected values are resolved once at start-up; the runtime passes the same array on every request.
  const injects = method.parameters.some((p) => p?.source === 'inject');
  const injected = injects ? (typed ? ', injected: readonly unknown[]' : ', injected') : '';
  const title =
    method.kind === 'route'
      ? `${method.routes.map((r) => `${r.method} ${r.path ?? '(path known at run time)'}`).join(', ')} → ${method.className}.${method.methodName}`
      : `middleware ${method.className}.use`;
  const lines = [`/** ${title} (${file.displayName}:${method.line}) */`];
  const signature = typed ? `(req: ${helpers}.KilnRequest, strict: boolean${injected})` : `(req, strict${injected})`;
  const returns = typed ? (readsBody ? ': Promise<unknown[]>' : ': unknown[]') : '';
  lines.push(`${readsBody ? 'async ' : ''}function ${name}${signature}${returns} {`);
  // A body type with a File is read from multipart/form-data; every other body by its media type.
  const readsForm = method.parameters.some((p) => p?.validation?.form === true);
  if (readsBody) lines.push(`  const body = await ${helpers}.${readsForm ? 'readFormBody' : 'readBody'}(req, strict);`);
  lines.push(...validators.open(method, typed));
  for (const parameter of method.parameters) {
    if (parameter === undefined) lines.push('    undefined, // not bound: see the KILN error reported for this parameter');
    else
      lines.push(
        `    ${validators.wrap(parameter, convertExpression(parameter, parameter.conversion, values, validators))}, // ${describeParameter(parameter)}`,
      );
  }
  lines.push(validators.close(), '}');
  return lines.join('\n');
}

/** What the transformer appends to one file: the helpers import, value lists, binders, and the names of the binders by method. */
export interface GeneratedCode {
  readonly text: string;
  /** Binder function name by the method's `nameEnd` (`kiln$b.noParameters` for a method without parameters). */
  readonly binders: ReadonlyMap<number, string>;
  /** The declared type (original positions) each typia validator was written for, by validator name. */
  readonly validatorSites: ReadonlyMap<string, { readonly start: number; readonly end: number }>;
  /** Dependency-list function name by the class's `classKey`. */
  readonly dependencyLists: ReadonlyMap<number, string>;
  /** The binder functions written as plain JavaScript, to be left out of type checking (see `uncheckedBinders`). */
  readonly uncheckedBinders: ReadonlySet<string>;
}

/** How {@link emitFileCode} writes the binders. */
export interface BinderOptions {
  /**
   * Writes the binders as plain JavaScript that the program phase takes out of the checked
   * program (emit/unchecked-statements.cts) and the emit phase prints as written: the binders
   * cost no binding or type checking (on an app of 300 routes, a fifth of a plain build). They
   * call Kiln's helpers only, whose use each is covered by the helpers' own tests.
   */
  readonly uncheckedBinders?: boolean;
}

/**
 * Writes the generated tail of a file. It is type-checked with the user's code; at emit time the
 * import and the constants move to the top of the file and the `void` statement (which only
 * keeps the blanked decorators' imports and the binders referenced for `noUnusedLocals`) is dropped.
 */
export function emitFileCode(file: FileModel, bindingModule: string, commonJs: boolean, options: BinderOptions = {}): GeneratedCode {
  const typed = options.uncheckedBinders !== true;
  const values = new ValueLists();
  const validators = new BodyValidators(helpers);
  const taken = new Set<string>();
  const binders = new Map<number, string>();
  const functions: string[] = [];
  for (const method of file.methods) {
    if (method.parameters.length === 0) {
      binders.set(method.nameEnd, noParametersBinder);
      continue;
    }
    const name = binderName(method, taken);
    binders.set(method.nameEnd, name);
    functions.push(binderSource(method, name, file, values, validators, typed));
  }
  const dependencies = emitDependencyLists(file.injections, helpers, file.displayName, taken);
  functions.push(...dependencies.functions);
  const importLine = commonJs
    ? `import ${helpers} = require(${quote(bindingModule)});`
    : `import * as ${helpers} from ${quote(bindingModule)};`;
  const binderNames = [...binders.values()].filter((name) => name !== noParametersBinder);
  // Unchecked binders are not in the checked program: what only they read is kept referenced here instead.
  const kept = [
    helpers,
    ...file.references,
    ...(typed ? binderNames : [...values.names(), ...validators.names()]),
    ...dependencies.names.values(),
  ];
  const text = [
    '',
    '// ---- generated by @kiln/core/transformer: parameter binders (docs: guide/controllers.md, What the transformer writes) ----',
    importLine,
    ...values.declarations(),
    ...validators.declarations(),
    ...functions,
    `void [${kept.join(', ')}];`,
    '',
  ].join('\n');
  return {
    text,
    binders,
    validatorSites: validators.sites(),
    dependencyLists: dependencies.names,
    uncheckedBinders: new Set(typed ? [] : binderNames),
  };
}
