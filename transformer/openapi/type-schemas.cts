// JSON schemas of TypeScript types, written by typia's own JSON-schema programmer (the one behind
// `typia.json.schemas<[...]>()`), fed from Kiln's type checker. One metadata collection for the
// whole document: a type used by several routes becomes one shared component, and two different
// types with the same name get distinct, stable names (`Book`, `Book.o1`) in analysis order.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as ts from 'typescript';
import type { JsonSchema } from './openapi-types.cjs';

/** The part of `@typia/core` used here (typia ~12.2). */
interface TypiaCore {
  MetadataCollection: { new (options: { replace: (name: string) => string }): unknown; replace: (name: string) => string };
  MetadataFactory: {
    analyze(props: {
      checker: ts.TypeChecker;
      transformer: undefined;
      options: { escape: boolean; constant: boolean; absorb: boolean; validate?: unknown };
      components: unknown;
      type: ts.Type;
    }): { success: true; data: unknown } | { success: false; errors: { name: string; explore: unknown; messages: string[] }[] };
  };
  JsonSchemasProgrammer: {
    validate: unknown;
    writeSchemas(props: { version: '3.1'; metadatas: unknown[] }): {
      components: { schemas?: Record<string, JsonSchema> };
      schemas: JsonSchema[];
    };
  };
}

/**
 * Loads the three modules of `@typia/core` used here, as the project's typia resolves them;
 * `undefined` when typia is not installed. Only those three: the package's index loads every
 * programmer typia has, which costs the build more than the document does.
 */
export function loadTypiaCore(projectDir: string): TypiaCore | undefined {
  let core: string;
  try {
    const typiaManifest = createRequire(`${projectDir}/package.json`).resolve('typia/package.json');
    core = createRequire(typiaManifest).resolve('@typia/core/package.json');
  } catch {
    return undefined;
  }
  const load = createRequire(core);
  const lib = join(dirname(core), 'lib');
  try {
    return {
      ...(load(join(lib, 'factories', 'MetadataFactory.js')) as Pick<TypiaCore, 'MetadataFactory'>),
      ...(load(join(lib, 'schemas', 'metadata', 'MetadataCollection.js')) as Pick<TypiaCore, 'MetadataCollection'>),
      ...(load(join(lib, 'programmers', 'json', 'JsonSchemasProgrammer.js')) as Pick<TypiaCore, 'JsonSchemasProgrammer'>),
    };
  } catch {
    return load('@typia/core') as TypiaCore; // another layout: the whole package
  }
}

/** A schema still to be written: replaced by the type's JSON schema when the document is finished. */
export interface PendingSchema {
  readonly $kilnType: number;
}

export class TypeSchemas {
  readonly #typia: TypiaCore;
  readonly #checker: ts.TypeChecker;
  readonly #collection: unknown;
  readonly #metadatas: unknown[] = [];
  readonly #indexes = new Map<string, number>();
  readonly #textFlags: ts.TypeFormatFlags;

  constructor(typia: TypiaCore, tsi: typeof ts, checker: ts.TypeChecker) {
    this.#typia = typia;
    this.#checker = checker;
    this.#textFlags =
      tsi.TypeFormatFlags.NoTruncation | tsi.TypeFormatFlags.UseFullyQualifiedType | tsi.TypeFormatFlags.UseStructuralFallback;
    this.#collection = new typia.MetadataCollection({ replace: typia.MetadataCollection.replace });
  }

  /** Registers a type; answers a placeholder for its schema, or the reasons typia cannot describe it. */
  add(type: ts.Type): PendingSchema | Undescribable {
    // Structurally equal anonymous types (`{ id: number }` returned by many handlers) are distinct
    // type objects: keyed by their fully qualified text, each is analysed once.
    const key = this.#checker.typeToString(type, undefined, this.#textFlags);
    const known = this.#indexes.get(key);
    if (known !== undefined) return { $kilnType: known };
    const result = this.#typia.MetadataFactory.analyze({
      checker: this.#checker,
      transformer: undefined,
      // escape: the type as JSON.stringify writes it (a Date becomes its toJSON() string).
      options: { escape: true, constant: true, absorb: false, validate: this.#typia.JsonSchemasProgrammer.validate },
      components: this.#collection,
      type,
    });
    if (!result.success) {
      return {
        undescribable: true,
        problems: [
          ...new Set(
            result.errors.flatMap((error) =>
              error.messages.map((text) => {
                const message = text.replace(/\.$/, '');
                return error.name ? `${error.name}: ${message}` : message;
              }),
            ),
          ),
        ],
      };
    }
    const index = this.#metadatas.push(result.data) - 1;
    this.#indexes.set(key, index);
    return { $kilnType: index };
  }

  /** Every registered type's schema (by placeholder index) and the shared components. */
  write(): { readonly schemas: readonly JsonSchema[]; readonly components: Readonly<Record<string, JsonSchema>> } {
    if (this.#metadatas.length === 0) return { schemas: [], components: {} };
    const written = this.#typia.JsonSchemasProgrammer.writeSchemas({ version: '3.1', metadatas: this.#metadatas });
    return { schemas: written.schemas, components: written.components.schemas ?? {} };
  }
}

/** Why typia cannot describe a type. */
export interface Undescribable {
  readonly undescribable: true;
  readonly problems: readonly string[];
}

export function isUndescribable(value: unknown): value is Undescribable {
  return typeof value === 'object' && value !== null && (value as Undescribable).undescribable === true;
}

/** Whether a value is a placeholder made by `TypeSchemas.add`. */
export function isPendingSchema(value: unknown): value is PendingSchema {
  return typeof value === 'object' && value !== null && typeof (value as PendingSchema).$kilnType === 'number';
}
