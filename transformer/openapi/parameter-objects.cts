// A bound parameter as an OpenAPI Parameter Object: its schema is the conversion Kiln applies
// (transformer/analyse/type-conversion.cts), not merely the declared TypeScript type — a `Date`
// arrives as date-time text, a literal union is an `enum`, a repeated query key an exploded array.
import type * as ts from 'typescript';
import type { ItemConversion, ParameterModel } from '../analyse/model.cjs';
import type { Toolkit } from '../toolkit.cjs';
import type { JsonSchema, ParameterObject } from './openapi-types.cjs';
import { isUndescribable, type PendingSchema, type TypeSchemas, type Undescribable } from './type-schemas.cjs';

const locations = { param: 'path', query: 'query', header: 'header', cookie: 'cookie' } as const;

/** A schema, or the reasons typia could not describe the declared type. */
type Described = JsonSchema | PendingSchema | Undescribable;

function withoutAbsent(tk: Toolkit, type: ts.Type): ts.Type {
  return tk.checker.getNonNullableType(type);
}

/** Whether a type carries typia tags (`number & tags.Minimum<1>`): an intersection of a primitive with tag objects. */
function isTagged(tk: Toolkit, type: ts.Type): boolean {
  return type.isIntersection() || (type.isUnion() && type.types.some((t) => t.isIntersection()));
}

/** The schema of one converted item (a scalar parameter, or one element of an array). */
function itemSchema(tk: Toolkit, schemas: TypeSchemas, item: ItemConversion, type: ts.Type): Described {
  switch (item.kind) {
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date-time' };
    case 'enum': {
      const kinds = new Set(item.values.map((v) => typeof v));
      return kinds.size === 1 ? { type: kinds.has('number') ? 'number' : 'string', enum: [...item.values] } : { enum: [...item.values] };
    }
    case 'json':
      return schemas.add(withoutAbsent(tk, type));
    case 'number':
    case 'text':
      // typia tags become JSON-schema keywords (`minimum`, `format`, `type: integer`...).
      return isTagged(tk, withoutAbsent(tk, type))
        ? schemas.add(withoutAbsent(tk, type))
        : { type: item.kind === 'number' ? 'number' : 'string' };
  }
}

/** The literal value of a default initializer (`= 20`, `= 'asc'`, `= Stock.Low`, `= []`), when it has one. */
function defaultValue(tk: Toolkit, initializer: ts.Expression | undefined): { value: unknown } | undefined {
  if (initializer === undefined) return undefined;
  if (tk.ts.isArrayLiteralExpression(initializer) && initializer.elements.length === 0) return { value: [] };
  const type = tk.checker.getTypeAtLocation(initializer);
  if (type.isStringLiteral() || type.isNumberLiteral()) return { value: type.value };
  if (type.flags & tk.ts.TypeFlags.BooleanLiteral) return { value: tk.checker.typeToString(type) === 'true' };
  return undefined;
}

function itemTypeOf(tk: Toolkit, type: ts.Type): ts.Type {
  const array = withoutAbsent(tk, type);
  return tk.checker.isArrayType(array) ? (tk.checker.getTypeArguments(array as ts.TypeReference)[0] ?? array) : array;
}

/**
 * The Parameter Object of a path, query or header binding (`undefined` for `@Body`, `@Req()` and
 * request-property decorators, which are not request parameters), or typia's reasons when the
 * declared type of a JSON parameter cannot be described.
 */
export function parameterObject(
  tk: Toolkit,
  schemas: TypeSchemas,
  model: ParameterModel,
  declaration: ts.ParameterDeclaration,
  description: string | undefined,
): ParameterObject | Undescribable | undefined {
  const location = (locations as Record<string, ParameterObject['in'] | undefined>)[model.source];
  if (location === undefined) return undefined;
  const type = tk.checker.getTypeAtLocation(declaration);
  const conversion = model.conversion;
  const parameter: ParameterObject = { name: model.key, in: location, required: location === 'path' || model.required };
  if (description !== undefined) parameter.description = description;

  let schema: Described;
  if (conversion.kind === 'raw') schema = {};
  else if (conversion.kind === 'array') {
    const items = itemSchema(tk, schemas, conversion.item, itemTypeOf(tk, type));
    if (isUndescribable(items)) return items;
    schema = { type: 'array', items };
    // A repeated query key (`?tags=a&tags=b`); a header's values are comma-separated (OpenAPI's default `simple`).
    if (location === 'query') Object.assign(parameter, { style: 'form', explode: true });
  } else {
    schema = itemSchema(tk, schemas, conversion, type);
  }
  if (isUndescribable(schema)) return schema;
  const fallback = defaultValue(tk, declaration.initializer);
  if (fallback !== undefined) schema = { ...schema, default: fallback.value };
  if (conversion.kind === 'json') parameter.content = { 'application/json': { schema } };
  else parameter.schema = schema;
  return parameter;
}

/** Whether a parameter can answer 400 under strictValidation: a conversion that can fail, or a required value. */
export function canFailConversion(model: ParameterModel): boolean {
  if (model.source === 'body') return true;
  if (model.required) return true;
  const item = model.conversion.kind === 'array' ? model.conversion.item : model.conversion;
  return (
    item.kind === 'number' ||
    item.kind === 'date' ||
    item.kind === 'json' ||
    item.kind === 'enum' ||
    model.validation !== undefined ||
    model.check !== undefined
  );
}
