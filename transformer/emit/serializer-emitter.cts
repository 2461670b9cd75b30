// Emit stage for typed responses: one typia JSON serialiser per return type, as a module constant
// in the generated tail (moved to the top of the file at emit time, like the body validators), and
// the name of the serialiser each route's `@kiln$b.compiledSerializer(...)` passes to the runtime.
import type { FileResponses, ResponseSerialization, ResponsesModel } from '../analyse/return-type.cjs';
import { helpersNamespace, serializerName, typiaNamespace } from './generated-names.cjs';

/** What the serialisers of one file add to its generated tail. */
export interface GeneratedSerializers {
  /** Statements appended to the generated tail (after the binders). */
  readonly text: string;
  /** Serialiser constant name by the method's `nameEnd`. */
  readonly serializers: ReadonlyMap<number, string>;
  /** The method name (original positions) each serialiser was written for, by serialiser name. */
  readonly sites: ReadonlyMap<string, { readonly start: number; readonly end: number }>;
}

/**
 * `const kiln$serialize_0 = kiln$typia.json.createStringify<Awaited<ReturnType<Users['get']>>>();`
 * for each distinct return type of the file, or for a list
 * `const kiln$serialize_1 = kiln$b.copyThenStringify(kiln$typia.misc.createClone<Awaited<ReturnType<Users['list']>>>());`.
 * typia's transformer replaces each call with straight-line code that writes (or copies) exactly
 * the properties the type declares. `typiaDeclared` says whether the tail
 * already declares `kiln$typia` (a file with typed bodies).
 */
export function emitSerializers(file: FileResponses, factory: ResponsesModel['factory'], typiaDeclared: boolean): GeneratedSerializers {
  const names = new Map<string, string>();
  const forms = new Map<string, ResponseSerialization['form']>();
  const serializers = new Map<number, string>();
  const sites = new Map<string, { start: number; end: number }>();
  for (const [nameEnd, serialization] of file.methods) {
    let name = names.get(serialization.typeQuery);
    if (name === undefined) {
      name = serializerName(names.size);
      names.set(serialization.typeQuery, name);
      forms.set(serialization.typeQuery, serialization.form);
      sites.set(name, serialization.site);
    }
    serializers.set(nameEnd, name);
  }
  const lines = ['// ---- typed responses: typia JSON serialisers (docs: guide/typed-responses.md) ----'];
  if (!typiaDeclared) lines.push(`declare const ${typiaNamespace}: typeof import('typia').default;`);
  for (const [type, name] of names) {
    // A list is copied to its declared properties, then written by JSON.stringify (see SerializationForm);
    // the 'assert' option checks every value, so it keeps typia's asserting serialiser for lists too.
    const copied = forms.get(type) === 'list' && factory === 'createStringify';
    lines.push(
      copied
        ? `const ${name} = ${helpersNamespace}.copyThenStringify(${typiaNamespace}.misc.createClone<${type}>());`
        : `const ${name} = ${typiaNamespace}.json.${factory}<${type}>();`,
    );
  }
  lines.push(`void [${[...names.values()].join(', ')}];`, '');
  return { text: lines.join('\n'), serializers, sites };
}
