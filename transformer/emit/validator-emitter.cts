// Emit stage for typed request bodies: one typia validator per body type, as a module constant
// next to the binders, and the binder expression that applies it under strictValidation.
import type { BodyValidation, MethodModel, ParameterModel } from '../analyse/model.cjs';

import { typiaNamespace, validatorName } from './generated-names.cjs';

export { typiaNamespace };

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
  readonly #sites = new Map<string, BodyValidation['site']>();
  /** Whether the binder being written collects the failures of several typed bodies before it answers. */
  #collecting = false;

  constructor(readonly helpers: string) {}

  /**
   * How a binder's `return [` is written. With one typed body (or none) the array as it is; with
   * several, each validation adds its failures to one list and `allBodiesValid` answers the 400
   * once all are checked, naming the failures of every parameter.
   */
  open(method: MethodModel, typed = true): string[] {
    this.#collecting = method.parameters.filter((p) => p?.validation !== undefined).length > 1;
    const failures = typed ? `failures: ${this.helpers}.BodyValidationError[]` : 'failures';
    return this.#collecting ? [`  const ${failures} = [];`, `  return ${this.helpers}.allBodiesValid([`] : ['  return ['];
  }

  /** The validator constants' names (the generated `void` statement keeps them referenced). */
  names(): string[] {
    return [...this.#names.values()];
  }

  /** How the binder's array is closed (see {@link open}). */
  close(): string {
    return this.#collecting ? '  ], failures);' : '  ];';
  }

  /** `expression` (the parameter's value as read) validated with the parameter's validator, when it has one. */
  wrap(parameter: ParameterModel, expression: string): string {
    const validation = parameter.validation;
    if (validation === undefined) return expression;
    if (validation.form === true) {
      const decode = this.nameOf(validation.typeQuery, validation.site, 'http.createFormData');
      const validate = this.nameOf(validation.typeQuery, validation.site, 'http.createValidateFormData');
      const path = validation.path === '$input' && !this.#collecting ? '' : `, ${quote(validation.path)}`;
      return `${this.helpers}.validateForm(${expression}, strict, ${decode}, ${validate}${path}${this.#collecting ? ', failures' : ''})`;
    }
    const name = this.nameOf(validation.typeQuery, validation.site);
    const path = validation.path === '$input' && !this.#collecting ? '' : `, ${quote(validation.path)}`;
    return `${this.helpers}.validateBody(${expression}, strict, ${name}${path}${this.#collecting ? ', failures' : ''})`;
  }

  /**
   * The validator constant for a type (one per type and file): typed bodies, and since issue 13 the
   * tagged and object-typed parameters (`ParameterModel.check`).
   */
  nameOf(typeQuery: string, site: BodyValidation['site'], factory = 'createValidateEquals'): string {
    // Keyed by factory and type: a form body's decoder and validator are two constants of one type.
    const key = `${factory}<${typeQuery}>`;
    let name = this.#names.get(key);
    if (name === undefined) {
      name = validatorName(this.#names.size);
      this.#names.set(key, name);
      this.#sites.set(name, site);
    }
    return name;
  }

  /** The declared type each validator was written for, by validator name (see validator-diagnostics.cts). */
  sites(): ReadonlyMap<string, BodyValidation['site']> {
    return this.#sites;
  }

  /** typia's declaration and the validator constants; nothing when no parameter is validated. */
  declarations(): string[] {
    if (this.#names.size === 0) return [];
    const typia = `declare const ${typiaNamespace}: typeof import('typia').default;`;
    return [typia, ...[...this.#names].map(([call, name]) => `const ${name} = ${typiaNamespace}.${call}();`)];
  }
}

function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
