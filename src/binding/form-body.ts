import { HttpError } from '../http-error.js';
import { isMultipart } from '../request/body-parser.js';
import type { KilnRequest } from '../request/kiln-request.js';
import { readBody } from './body.js';
import { validateBody, type BodyValidationError, type BodyValidator } from './validate-body.js';

/** What typia's `http.createValidateFormData<T>()` generates, reduced to what Kiln reads. */
export type FormValidator = (
  input: FormData,
) => { readonly success: true; readonly data: unknown } | { readonly success: false; readonly errors: readonly BodyValidationError[] };

/** What typia's `http.createFormData<T>()` generates: FormData decoded into `T` by its declared types, unchecked. */
export type FormDecoder = (input: FormData) => unknown;

function mediaTypeOf(req: KilnRequest): string {
  const type = req.headers.get('content-type');
  return type === null ? '' : type.split(';', 1)[0]!.trim().toLowerCase();
}

/**
 * The body of a route whose `@Body` type has a `File`: read only from `multipart/form-data`
 * (streamed within the upload limits; a urlencoded form is taken too, as a form without files).
 * Any other media type is a 415 before a byte is read; no body at all is `undefined`.
 */
export function readFormBody(req: KilnRequest, strict: boolean): Promise<unknown> {
  const contentType = req.headers.get('content-type');
  if (isMultipart(contentType)) return req.parseBody();
  const type = mediaTypeOf(req);
  if (type === 'application/x-www-form-urlencoded') return readBody(req, strict).then(formOfFields);
  if (contentType === null && req.headers.get('content-length') === null && req.headers.get('transfer-encoding') === null)
    return Promise.resolve(undefined);
  return Promise.reject(
    new HttpError(415, `Unsupported Content-Type '${type}': this route's @Body has files, so it reads multipart/form-data`),
  );
}

/** A parsed urlencoded form (a null-prototype object of strings and string arrays) as FormData. */
function formOfFields(fields: unknown): FormData | undefined {
  if (fields === undefined) return undefined;
  const form = new FormData();
  for (const [name, value] of Object.entries(fields as Record<string, string | string[]>)) {
    for (const item of Array.isArray(value) ? value : [value]) form.append(name, item);
  }
  return form;
}

/** A part's name as typia writes a path: `.title`, or `["a-b"]` for a name that is not an identifier. */
function partPath(path: string, name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `${path}.${name}` : `${path}[${JSON.stringify(name)}]`;
}

/**
 * The parts of `form` whose names the declared type does not have, as failures in the shape of a
 * JSON body's undeclared property (`$input.extra expected undefined`). `decoded` is typia's decoding
 * of the form: it has an own key for every declared property (and for each name an index
 * signature takes), so a name it lacks is one the type does not declare.
 */
function undeclaredParts(form: FormData, decoded: unknown): BodyValidationError[] {
  const declared = typeof decoded === 'object' && decoded !== null ? decoded : {};
  const failures: BodyValidationError[] = [];
  const seen = new Set<string>();
  for (const [name, value] of form) {
    if (seen.has(name) || Object.hasOwn(declared, name)) continue;
    seen.add(name);
    const shown = typeof value === 'string' ? value : { filename: value.name, size: value.size };
    failures.push({ path: partPath('$input', name), expected: 'undefined', value: shown });
  }
  return failures;
}

/**
 * `@Body()` with a `File` in its type: the FormData decoded into the declared type by typia
 * (numbers, booleans and arrays converted from their text, files as `File`s). Under `strict`, a
 * value outside the type answers 400 naming every failing path, as a JSON body's validation does,
 * and so does a field or file the type does not declare (named by its part's name); without it
 * the decoded value passes unchecked and undeclared parts are dropped. A body that is not
 * FormData (none) is left as it is.
 */
export function validateForm(
  value: unknown,
  strict: boolean,
  decode: FormDecoder,
  validate: FormValidator,
  path = '$input',
  failures?: BodyValidationError[],
): unknown {
  if (!(value instanceof FormData)) return value;
  if (!strict) return decode(value);
  let decoded: unknown;
  const check: BodyValidator = (input) => {
    const form = input as FormData;
    const result = validate(form);
    // The undeclared parts are listed with the type's own failures, in the order the parts came.
    const undeclared = undeclaredParts(form, result.success ? result.data : decode(form));
    if (undeclared.length === 0) {
      if (result.success) decoded = result.data;
      return result;
    }
    return { success: false, errors: result.success ? undeclared : [...result.errors, ...undeclared] };
  };
  const checked = validateBody(value, true, check, path, failures);
  return decoded ?? checked;
}
