// Emit stage for typed responses: one serialiser per return type, as a module constant in the
// generated tail (moved to the top of the file at emit time, like the body validators), and the
// name of the serialiser each route's `@kiln$b.compiledSerializer(...)` passes to the runtime. The
// serialiser is `JSON.stringify` of the value projected to the type's shape: the shape as a table
// of plain data, and a projector written for it here (projector-emitter.cts).
import type { FileResponses, ResponsesModel } from '../analyse/return-type.cjs';
import type { ShapeRef } from '../analyse/response-shape.cjs';
import { helpersNamespace, serializerName, typiaNamespace } from './generated-names.cjs';
import { emitProjector } from './projector-emitter.cjs';

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
 * `const kiln$serialize_0 = kiln$b.projectingSerializer([...shape table...], (kit) => { ...projector... });`
 * for each distinct return type of the file; under `'assert'` wrapped in
 * `kiln$b.assertingSerializer(kiln$typia.createAssert<Awaited<ReturnType<Users['get']>>>(), ...)`.
 * `typiaDeclared` says whether the tail already declares `kiln$typia` (a file with typed bodies).
 */
export function emitSerializers(file: FileResponses, model: Pick<ResponsesModel, 'assert'>, typiaDeclared: boolean): GeneratedSerializers {
  const names = new Map<string, string>();
  const shapes = new Map<string, ShapeRef>();
  const serializers = new Map<number, string>();
  const sites = new Map<string, { start: number; end: number }>();
  for (const [nameEnd, serialization] of file.methods) {
    let name = names.get(serialization.typeQuery);
    if (name === undefined) {
      name = serializerName(names.size);
      names.set(serialization.typeQuery, name);
      shapes.set(serialization.typeQuery, serialization.shape);
      sites.set(name, serialization.site);
    }
    serializers.set(nameEnd, name);
  }
  const lines = ['// ---- typed responses: projected to the declared type, then JSON.stringify (docs/guide/typed-responses.md) ----'];
  if (model.assert && !typiaDeclared) lines.push(`declare const ${typiaNamespace}: typeof import('typia').default;`);
  for (const [type, name] of names) {
    const projecting = `${helpersNamespace}.projectingSerializer(${emitProjector(shapes.get(type)!)})`;
    lines.push(
      model.assert
        ? `const ${name} = ${helpersNamespace}.assertingSerializer(${typiaNamespace}.createAssert<${type}>(), ${projecting});`
        : `const ${name} = ${projecting};`,
    );
  }
  lines.push(`void [${[...names.values()].join(', ')}];`, '');
  return { text: lines.join('\n'), serializers, sites };
}
