// Emit stage for typed request bodies: one typia validator per body type, as a module constant
// next to the binders, and the binder expression that applies it under strictValidation.
import type { ParameterModel } from './model.cjs';

/** The name generated code imports typia under. */
export const typiaNamespace = 'kiln$typia';

/**
 * The validators of one file. Each is `kiln$typia.createValidateEquals<T>()` written in the
 * generated tail: typia's transformer (after Kiln's in `plugins`) replaces the call with the
 * validator's code at emit time, and Kiln's emit phase moves the constant to the top of the file.
 * `kiln$typia` is only declared (`declare const`), never imported: typia recognises its calls by
 * their declaration, so the app loads just the few `typia/lib/internal/*` helpers the validators
 * use, not typia's whole index (about 25 ms at start-up).
 */
export class BodyValidators {
  readonly #names = new Map<string, string>();

  constructor(readonly helpers: string) {}

  /** `expression` (the parameter's value as read) validated with the parameter's validator, when it has one. */
  wrap(parameter: ParameterModel, expression: string): string {
    const validation = parameter.validation;
    if (validation === undefined) return expression;
    let name = this.#names.get(validation.typeQuery);
    if (name === undefined) {
      name = `kiln$validate_${this.#names.size}`;
      this.#names.set(validation.typeQuery, name);
    }
    const path = validation.path === '$input' ? '' : `, ${quote(validation.path)}`;
    return `${this.helpers}.validateBody(${expression}, strict, ${name}${path})`;
  }

  /** typia's declaration and the validator constants; nothing when no parameter is validated. */
  declarations(): string[] {
    if (this.#names.size === 0) return [];
    const typia = `declare const ${typiaNamespace}: typeof import('typia').default;`;
    return [typia, ...[...this.#names].map(([type, name]) => `const ${name} = ${typiaNamespace}.createValidateEquals<${type}>();`)];
  }
}

function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
