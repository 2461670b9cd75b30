// Every name Kiln writes into an app's build, in one place. They all start with `kiln$`, which a
// TypeScript identifier written by hand almost never does, so generated code cannot collide with
// the user's own names. The emit phase and the diagnostics relocation rely on these spellings.

/** The namespace generated code reads runtime helpers through; kept by name in every module format. */
export const helpersNamespace = 'kiln$b';

/** The name typia is declared under in generated code (declared, never imported). */
export const typiaNamespace = 'kiln$typia';

/** The prefix of every binder function: `kiln$bind_<Class>_<method>`. */
export const binderPrefix = 'kiln$bind_';

/** The module constant holding the n-th enum value list of a file. */
export function valueListName(index: number): string {
  return `kiln$values_${index}`;
}

/** The module constant holding the n-th typia validator of a file. */
export function validatorName(index: number): string {
  return `kiln$validate_${index}`;
}

/** The prefix of every dependency-list function: `kiln$deps_<Class>`. */
export const dependenciesPrefix = 'kiln$deps_';
/** The binder of a method without parameters: a runtime helper, so every compiled method is marked. */
export const noParametersBinder = `${helpersNamespace}.noParameters`;

/** The module constant holding the n-th typia response serialiser of a file. */
export function serializerName(index: number): string {
  return `kiln$serialize_${index}`;
}

/** The module constant holding the n-th WebSocket message codec of a file. */
export function socketCodecName(index: number): string {
  return `kiln$socket_${index}`;
}
