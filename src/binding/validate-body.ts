import { HttpError } from '../http-error.js';

/** One failing path, as typia reports it (`$input.age`, `number & Minimum<0>`, `-1`). */
export interface BodyValidationError {
  readonly path: string;
  readonly expected: string;
  readonly value?: unknown;
}

/**
 * What a typia validator generated at build time is (`typia.createValidateEquals<T>()`), reduced
 * to the members Kiln reads.
 */
export type BodyValidator = (input: unknown) =>
  | { readonly success: true }
  | { readonly success: false; readonly errors: readonly BodyValidationError[] };

/** The 400 message lists this many failures; `data.errors` carries every one. */
const listedInMessage = 10;

/**
 * `@Body()` / `@Body('field')` with a declared type: under `strict`, checks the parsed value with
 * the validator typia generated for that type and answers 400 naming every failing path; without
 * `strict` the value passes through unchecked. `path` is where the value sits in the body
 * (`$input` for the whole body, `$input.name` for `@Body('name')`), so the paths read the same.
 * A handler with several typed `@Body` parameters passes one `failures` list to each and calls
 * {@link allBodiesValid} after the last, so the 400 names the failures of all of them.
 */
export function validateBody(value: unknown, strict: boolean, validate: BodyValidator, path = '$input', failures?: BodyValidationError[]): unknown {
  if (!strict) return value;
  // Hot path: a valid body costs one validator call.
  const result = validate(value);
  if (result.success) return value;
  const errors = atPath(result.errors, path);
  if (failures === undefined) throw bodyValidationError(errors);
  failures.push(...errors);
  return value;
}

/** The bound arguments, or the 400 naming every failure {@link validateBody} collected for them. */
export function allBodiesValid<T>(args: T, failures: readonly BodyValidationError[]): T {
  if (failures.length > 0) throw bodyValidationError(failures);
  return args;
}

/** typia's failures, with `$input` replaced by where the value sits in the body. */
function atPath(failures: readonly BodyValidationError[], path: string): BodyValidationError[] {
  return failures.map((failure) => ({
    path: path === '$input' ? failure.path : path + failure.path.slice('$input'.length),
    expected: failure.expected,
    value: failure.value,
  }));
}

/** The 400 for failed body validation: `data.errors` holds `{ path, expected, value }` for each failure. */
export function bodyValidationError(errors: readonly BodyValidationError[]): HttpError {
  const listed = errors.slice(0, listedInMessage).map((e) => `${e.path} expected ${e.expected}, got ${describeValue(e.value)}`);
  if (errors.length > listedInMessage) listed.push(`and ${errors.length - listedInMessage} more (see data.errors)`);
  return new HttpError(400, `Invalid request body: ${listed.join('; ')}`, { errors });
}

const longestValue = 60;

/** A received value as JSON, shortened: `-1`, `"x"`, `{"a":1}`, `undefined`. */
function describeValue(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > longestValue ? `${text.slice(0, longestValue - 3)}...` : text;
}
