import { HttpError } from '../http-error.js';
import { firstText, type RawValue } from './raw-value.js';
import { parseJson } from './to-json.js';
import { bodyValidationError, type BodyValidationError, type BodyValidator } from './validate-body.js';

/**
 * An object- or tuple-typed parameter (`@Query('filter') filter: Filter`): the JSON text parsed,
 * then checked against the declared type by the validator typia generated for it. Invalid JSON is
 * `Parameter 'filter' expected valid JSON, got '...'`; JSON of the wrong shape answers 400 naming
 * every failing path (`filter.age expected number, got "x"`). Without `strict` either failure is
 * `null`, so the handler never receives a value its type does not describe. `undefined` when absent.
 */
export function toCheckedJson(raw: RawValue, name: string, strict: boolean, check: BodyValidator): unknown {
  const text = firstText(raw);
  return text === undefined ? undefined : checkedJson(text, name, strict, check, -1);
}

/** An array of object-typed items, each sent as JSON text and checked; failing paths start at `name[index]`. */
export function toCheckedJsonArray(items: readonly string[], name: string, strict: boolean, check: BodyValidator): unknown[] {
  const values: unknown[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) values[i] = checkedJson(items[i]!, name, strict, check, i);
  return values;
}

function checkedJson(text: string, name: string, strict: boolean, check: BodyValidator, index: number): unknown {
  const value = parseJson(text, name, strict, index);
  // Without strict, text that is not JSON is already null (parseJson), the failure value.
  if (value === null && !strict) return null;
  const result = check(value);
  if (result.success) return value;
  if (!strict) return null;
  const root = index < 0 ? name : `${name}[${index}]`;
  throw parameterValidationError(
    root,
    result.errors.map((e) => ({ path: root + e.path.slice('$input'.length), expected: e.expected, value: e.value })),
  );
}

/**
 * The 400 for a parameter whose JSON does not match its type: `Invalid parameter 'filter': <path>
 * expected <type>, got <value>; ...`. Listed, shortened and bounded exactly as a body's failures
 * are (`bodyValidationError`): one place decides how much of a hostile input a 400 repeats.
 */
export function parameterValidationError(name: string, errors: readonly BodyValidationError[]): HttpError {
  const body = bodyValidationError(errors);
  return new HttpError(400, `Invalid parameter '${name}': ${body.message.slice(bodyPrefix.length)}`, body.data);
}

const bodyPrefix = 'Invalid request body: ';
