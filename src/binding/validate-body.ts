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
export type BodyValidator = (
  input: unknown,
) => { readonly success: true } | { readonly success: false; readonly errors: readonly BodyValidationError[] };

// A hostile body (a megabyte of unexpected keys) fails on every key: the 400 names a few failures
// and counts the rest, so that it stays small whatever was sent (Fastify's CVE-2020-8192).
/** The 400 lists this many failures, in its message and in `data.errors`. */
const listedFailures = 10;
/** UTF-8 bytes of JSON text a path or an expected type keeps; a received value's JSON text in `data.errors`; in the message. */
const longestPath = 160;
const longestExpected = 160;
const longestValue = 100;
const longestValueInMessage = 60;

/** Failures past the listed ones, counted on the collecting list without being kept. */
const unlisted = Symbol('kiln.unlistedFailures');
type FailureList = BodyValidationError[] & { [unlisted]?: number };

/**
 * `@Body()` / `@Body('field')` with a declared type: under `strict`, checks the parsed value with
 * the validator typia generated for that type and answers 400 naming the failing paths; without
 * `strict` the value passes through unchecked. `path` is where the value sits in the body
 * (`$input` for the whole body, `$input.name` for `@Body('name')`), so the paths read the same.
 * A handler with several typed `@Body` parameters passes one `failures` list to each and calls
 * {@link allBodiesValid} after the last, so the 400 names the failures of all of them.
 */
export function validateBody(
  value: unknown,
  strict: boolean,
  validate: BodyValidator,
  path = '$input',
  failures?: BodyValidationError[],
): unknown {
  if (!strict) return value;
  // Hot path: a valid body costs one validator call.
  const result = validate(value);
  if (result.success) return value;
  const collected: FailureList = failures ?? [];
  collect(collected, result.errors, path);
  if (failures === undefined) throw failureList400(collected);
  return value;
}

/** The bound arguments, or the 400 naming the failures {@link validateBody} collected for them. */
export function allBodiesValid<T>(args: T, failures: readonly BodyValidationError[]): T {
  if (failures.length > 0) throw failureList400(failures as FailureList);
  return args;
}

/** Keeps the first failures, with `$input` replaced by where the value sits, and counts the rest. */
function collect(list: FailureList, failures: readonly BodyValidationError[], path: string): void {
  const room = Math.max(0, listedFailures - list.length);
  const kept = Math.min(room, failures.length);
  for (let i = 0; i < kept; i++) {
    const failure = failures[i]!;
    list.push({
      path: path === '$input' ? failure.path : path + failure.path.slice('$input'.length),
      expected: failure.expected,
      value: failure.value,
    });
  }
  if (failures.length > kept) list[unlisted] = (list[unlisted] ?? 0) + failures.length - kept;
}

function failureList400(list: FailureList): HttpError {
  return bodyValidationError(list, list[unlisted] ?? 0);
}

/**
 * The 400 for failed body validation: `Invalid request body: <path> expected <type>, got <value>; …`
 * and `data.errors` with `{ path, expected, value }` for at most ten failures (`data.more` counts
 * the others). Paths, types and values are shortened, so the body stays a few KiB whatever the input.
 */
export function bodyValidationError(errors: readonly BodyValidationError[], more = 0): HttpError {
  const originals = errors.slice(0, listedFailures);
  const shown = originals.map(shorten);
  const rest = more + Math.max(0, errors.length - listedFailures);
  const listed = shown.map(
    (e, i) => `${e.path} expected ${e.expected}, got ${clip(describeValue(originals[i]!.value), longestValueInMessage)}`,
  );
  if (rest > 0) listed.push(`and ${rest} more`);
  const data: { errors: BodyValidationError[]; more?: number } = { errors: shown };
  if (rest > 0) data.more = rest;
  return new HttpError(400, `Invalid request body: ${listed.join('; ')}`, data);
}

function shorten(failure: BodyValidationError): BodyValidationError {
  const shortened: { path: string; expected: string; value?: unknown } = {
    path: clipMiddle(String(failure.path), longestPath),
    expected: clip(String(failure.expected), longestExpected),
  };
  if (failure.value !== undefined) {
    const text = describeValue(failure.value);
    shortened.value = jsonBytes(text) <= longestValue ? failure.value : clip(text, longestValue);
  }
  return shortened;
}

/** UTF-8 bytes `text` takes inside a JSON string (escapes included). */
function jsonBytes(text: string): number {
  return Buffer.byteLength(JSON.stringify(text)) - 2;
}

/** `text` cut so that it takes at most `max` bytes inside a JSON string, `...` included. */
function clip(text: string, max: number): string {
  if (jsonBytes(text) <= max) return text;
  let low = 0;
  let high = Math.min(text.length, max);
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (jsonBytes(text.slice(0, middle)) + 3 <= max) low = middle;
    else high = middle - 1;
  }
  return `${text.slice(0, low)}...`;
}

/** A received value as JSON text: `-1`, `"x"`, `{"a":1}`. Never throws, whatever the value (deep, cyclic, hostile). */
/** `text` cut in the middle (a path's start and its failing end both matter), at most `max` bytes in JSON. */
function clipMiddle(text: string, max: number): string {
  if (jsonBytes(text) <= max) return text;
  const head = clip(text, Math.floor(max * 0.4));
  let low = 0;
  let high = Math.min(text.length, max);
  const room = max - jsonBytes(head);
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (jsonBytes(text.slice(text.length - middle)) <= room) low = middle;
    else high = middle - 1;
  }
  return head + text.slice(text.length - low);
}

function describeValue(value: unknown): string {
  // a long string is cut before it is escaped: only its start is ever shown
  if (typeof value === 'string' && value.length > 2 * longestValue) value = value.slice(0, 2 * longestValue);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    try {
      return typeof value === 'object' && value !== null ? (Array.isArray(value) ? '[array]' : '[object]') : String(value);
    } catch {
      return '[value]';
    }
  }
}
