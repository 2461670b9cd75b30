// What a route takes, for the document: its parameters (path, query, header, cookie) and its
// request body, read from the bound parameters of the handler and of the class middlewares guarding it.
import type * as ts from 'typescript';
import type { MethodModel, ParameterModel } from '../analyse/model.cjs';
import { diagnosticMessage } from '../diagnostics/diagnostic-codes.cjs';
import { kilnDiagnostic } from '../diagnostics/kiln-diagnostic.cjs';
import type { ProgramToolkit, Toolkit } from '../toolkit.cjs';
import type { JsonSchema, OperationObject, ParameterObject } from './openapi-types.cjs';
import { canFailConversion, parameterObject } from './parameter-objects.cjs';
import { isUndescribable, type PendingSchema, type TypeSchemas } from './type-schemas.cjs';

/** A method whose bound parameters are inputs of the route: the handler, or a middleware's `use`. */
export interface InputMethod {
  readonly declaration: ts.MethodDeclaration;
  readonly model: MethodModel | undefined;
  /** Its JSDoc's `@param` descriptions, by parameter name. */
  readonly descriptions: ReadonlyMap<string, string>;
}

export interface RequestInputsOptions {
  readonly tk: ProgramToolkit;
  readonly schemas: TypeSchemas;
  /** `Controller.method`, as diagnostics name the route. */
  readonly where: string;
  /** The handler first, then the middlewares' `use` methods. */
  readonly methods: readonly InputMethod[];
  readonly diagnostics: ts.Diagnostic[];
}

/** What the route takes, and what that means for its answers. */
export interface RequestInputs {
  readonly parameters: ParameterObject[] | undefined;
  readonly requestBody: OperationObject['requestBody'];
  /** A parameter or the body can fail conversion or validation (a 400 under strictValidation). */
  readonly canFail: boolean;
  /** Whether the route reads a body, and how: a multipart form (with files) has its own limits. */
  readonly body: 'none' | 'parsed' | 'multipart';
}

/** Media types of a `@Body()`: what Kiln parses (JSON always; urlencoded forms and text only where the type can hold them). */
function bodyContent(schema: JsonSchema | PendingSchema, type: ts.Type, tk: Toolkit): Record<string, { schema: unknown }> {
  const { TypeFlags } = tk.ts;
  if (type.flags & (TypeFlags.Any | TypeFlags.Unknown)) {
    return {
      'application/json': { schema: {} },
      'application/x-www-form-urlencoded': { schema: { type: 'object' } },
      'text/plain': { schema: { type: 'string' } },
    };
  }
  if (tk.checker.getNonNullableType(type).flags & TypeFlags.StringLike) return { 'application/json': { schema }, 'text/plain': { schema } };
  return { 'application/json': { schema } };
}

/** The request body from `@Body()` parameters: the whole body, or one object of `@Body('key')` properties. */
class BodyParts {
  whole: { required: boolean; content: Record<string, { schema: unknown }> } | undefined;
  readonly properties: Record<string, unknown> = {};
  readonly required: string[] = [];
  read = false;
  multipart = false;

  requestBody(): OperationObject['requestBody'] {
    if (this.whole !== undefined) return this.whole;
    if (Object.keys(this.properties).length === 0) return undefined;
    const required = this.required;
    const schema = { type: 'object', properties: this.properties, ...(required.length > 0 ? { required } : {}) };
    return { required: required.length > 0, content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } } };
  }
}

interface BoundParameter {
  readonly parameter: ParameterModel;
  readonly node: ts.ParameterDeclaration;
  readonly description: string | undefined;
}

/** Adds a `@Body()` parameter to the body; a type the document cannot describe is reported instead. */
function addBodyPart(options: RequestInputsOptions, body: BodyParts, { parameter, node, description }: BoundParameter): void {
  const { tk, schemas } = options;
  body.read = true;
  body.multipart ||= parameter.validation?.form === true;
  const type = tk.checker.getTypeAtLocation(node);
  // (unknown without null and undefined is {}: test the declared type itself)
  const any = !!(type.flags & (tk.ts.TypeFlags.Any | tk.ts.TypeFlags.Unknown));
  const schema = any ? {} : schemas.add(tk.checker.getNonNullableType(type));
  if (isUndescribable(schema)) {
    options.diagnostics.push(
      kilnDiagnostic(
        tk.ts,
        node.type ?? node,
        diagnosticMessage('openApiTypeNotDescribable', 'body', options.where, schema.problems.join('; ')),
      ),
    );
    return;
  }
  if (parameter.key === '') {
    body.whole = {
      required: parameter.required,
      // A body with files is a multipart/form-data form; each File property is a binary part.
      content: parameter.validation?.form === true ? { 'multipart/form-data': { schema } } : bodyContent(schema, type, tk),
    };
    return;
  }
  body.properties[parameter.key] = description === undefined ? schema : { ...schema, description };
  if (parameter.required) body.required.push(parameter.key);
}

/** Adds a path, query, header or cookie parameter, once per place and (case-insensitive) name. */
function addParameter(
  options: RequestInputsOptions,
  parameters: ParameterObject[],
  { parameter, node, description }: BoundParameter,
): void {
  const { tk } = options;
  const object = parameterObject(tk, options.schemas, parameter, node, description);
  if (object === undefined) return;
  if (isUndescribable(object)) {
    options.diagnostics.push(
      kilnDiagnostic(
        tk.ts,
        node.type ?? node,
        diagnosticMessage('openApiTypeNotDescribable', 'parameter', parameter.parameterName, options.where, object.problems.join('; ')),
      ),
    );
    return;
  }
  if (!parameters.some((p) => p.in === object.in && p.name.toLowerCase() === object.name.toLowerCase())) parameters.push(object);
}

/** The parameters and request body of a route; a type that cannot be described is reported and left out. */
export function requestInputs(options: RequestInputsOptions): RequestInputs {
  const parameters: ParameterObject[] = [];
  const body = new BodyParts();
  let canFail = false;
  for (const { declaration, model, descriptions } of options.methods) {
    for (const parameter of model?.parameters ?? []) {
      if (parameter === undefined) continue;
      const bound = { parameter, node: declaration.parameters[parameter.index]!, description: descriptions.get(parameter.parameterName) };
      canFail ||= canFailConversion(parameter);
      if (parameter.source === 'body') addBodyPart(options, body, bound);
      else addParameter(options, parameters, bound);
    }
  }
  return {
    parameters: parameters.length > 0 ? parameters : undefined,
    requestBody: body.requestBody(),
    canFail,
    body: !body.read ? 'none' : body.multipart ? 'multipart' : 'parsed',
  };
}
