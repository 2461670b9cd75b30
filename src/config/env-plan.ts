/** How one variable's text becomes its value: the conversions of route parameters. */
export type EnvConversion =
  | { readonly kind: 'text' | 'number' | 'boolean' | 'date' }
  | { readonly kind: 'enum'; readonly values: readonly (string | number)[] }
  | { readonly kind: 'array'; readonly item: EnvConversion };

/** One property of the configuration interface: the variable of the same name. */
export interface EnvVariable {
  readonly name: string;
  readonly conversion: EnvConversion;
  /** Declared optional (`?`, or a union with `undefined`): absent is fine. */
  readonly optional: boolean;
}

/** typia's `IValidation` of the converted configuration, as much of it as Kiln reads. */
export interface EnvValidation {
  readonly success: boolean;
  readonly errors?: readonly { readonly path: string; readonly expected: string; readonly value: unknown }[];
}

/** What the build writes for each `env<T>()` call (`@kiln/core/transformer`). */
export interface EnvPlan {
  /** The declared type's name, for the error message. */
  readonly type: string;
  readonly variables: readonly EnvVariable[];
  /** typia's validator of the declared type, which checks the tags (`Format<'uri'>`, `Minimum<1>`); absent without tags. */
  readonly validate?: (input: unknown) => EnvValidation;
}
