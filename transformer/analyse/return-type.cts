// Analyse stage for typed responses: whether a route handler's return value is sent by a typia
// JSON serialiser written for its declared (or inferred) return type, and how generated code names
// that type. Like typed bodies (body-validation.cts), the type is named with a type query on the
// handler itself (`Awaited<ReturnType<Users['list']>>`), never reprinted.
import type * as ts from 'typescript';
import type { DiagnosticKey } from '../diagnostics/diagnostic-codes.cjs';
import { typiaConfigured } from './body-validation.cjs';
import { recogniseKilnDecorator } from '../find/route-recognition.cjs';
import { ownSourceFiles } from './analyse-program.cjs';
import { ownerTypeOf } from './body-validation.cjs';
import { kilnDiagnostic } from '../diagnostics/kiln-diagnostic.cjs';
import type { Toolkit } from '../toolkit.cjs';

/** The plugin option `typedResponses`: `true` (default), `false` (JSON.stringify everywhere) or `'assert'`. */
export type TypedResponsesOption = boolean | 'assert';

/** The JSDoc tag that keeps one route on `JSON.stringify`: `/** @jsonStringify *\/`. */
export const optOutTag = 'jsonStringify';

/**
 * How a return value is written from its type. `object`: typia's JSON serialiser, straight-line
 * string building (fastest for one object). `list`: typia's copy of the value holding only the
 * declared properties, then V8's own `JSON.stringify` (fastest for an array of objects: typia's
 * many concatenations are slower to build and to flatten for the socket than V8's native writer).
 */
export type SerializationForm = 'object' | 'list';

/** How one route's return value is serialised: a typia serialiser for its return type. */
export interface ResponseSerialization {
  /** A type expression naming the awaited return type from module scope: `Awaited<ReturnType<Users['list']>>`. */
  readonly typeQuery: string;
  readonly form: SerializationForm;
  /** The method's name in the original file: where typia's own errors about the type are reported. */
  readonly site: { readonly start: number; readonly end: number };
}

/** The serialised routes of one file, by the end offset of the method's name (as binders are). */
export interface FileResponses {
  readonly fileName: string;
  readonly methods: ReadonlyMap<number, ResponseSerialization>;
}

export interface ResponsesModel {
  readonly files: ReadonlyMap<string, FileResponses>;
  readonly diagnostics: readonly ts.Diagnostic[];
  /** `createStringify` or `createAssertStringify` (the `'assert'` option). */
  readonly factory: 'createStringify' | 'createAssertStringify';
}

/** Why a return type is not serialised from its type: it is not one, or JSON.stringify must see it whole. */
type Verdict =
  | { readonly serialise: true; readonly form: SerializationForm }
  | { readonly serialise: false }
  | { readonly problem: DiagnosticKey; readonly message: string };

/** Nesting deeper than this is not searched (recursive generic types never end). */
const deepest = 24;

/** Built-in classes typia's JSON serialiser refuses; JSON.stringify keeps its own (lossy) behaviour for them. */
const untypedClasses = new Set([
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'RegExp',
  'Promise',
  'Response',
  'ReadableStream',
  'Blob',
  'Buffer',
  'Uint8Array',
  'ArrayBuffer',
]);

/**
 * Finds every route handler of the program and decides how its value is serialised. Without
 * typia's transformer in `plugins` (and `typedResponses` not set explicitly) nothing is
 * serialised from types: such an app keeps `JSON.stringify`, as before typed responses existed.
 */
export function analyseResponses(tk: Toolkit, option: TypedResponsesOption | undefined, only?: ReadonlySet<string>): ResponsesModel {
  const files = new Map<string, FileResponses>();
  const diagnostics: ts.Diagnostic[] = [];
  const factory = option === 'assert' ? 'createAssertStringify' : 'createStringify';
  if (option === false) return { files, diagnostics, factory };
  const typia = typiaConfigured(tk.program.getCompilerOptions());
  for (const file of ownSourceFiles(tk)) {
    if (!file.text.includes('@') || (only !== undefined && !only.has(file.fileName))) continue;
    const methods = new Map<number, ResponseSerialization>();
    const visit = (node: ts.Node): void => {
      if (tk.ts.isMethodDeclaration(node) && isRoute(tk, node)) {
        const verdict = typia || option !== undefined ? verdictOf(tk, node) : { serialise: false as const };
        if ('problem' in verdict) diagnostics.push(kilnDiagnostic(tk.ts, verdict.problem, node.name, verdict.message));
        else if (verdict.serialise && !typia) {
          diagnostics.push(
            kilnDiagnostic(
              tk.ts,
              'typedResponsesWithoutTypia',
              node.name,
              '"typedResponses" is set in the @kiln/core/transformer entry, and typed responses are written by typia: ' +
                'add { "transform": "typia/lib/transform" } after Kiln\'s entry in compilerOptions.plugins (and npm install typia), ' +
                'or remove the option',
            ),
          );
        } else if (verdict.serialise) {
          const owner = ownerTypeOf(tk, node);
          // A handler generated code cannot name (a class inside a function, a private method) keeps JSON.stringify.
          if ('type' in owner) {
            methods.set(node.name.getEnd(), {
              typeQuery: `Awaited<ReturnType<${owner.type}>>`,
              form: verdict.form,
              site: { start: node.name.getStart(file), end: node.name.getEnd() },
            });
          }
        }
      }
      tk.ts.forEachChild(node, visit);
    };
    visit(file);
    if (methods.size > 0) files.set(file.fileName, { fileName: file.fileName, methods });
  }
  return { files, diagnostics, factory };
}

function isRoute(tk: Toolkit, method: ts.MethodDeclaration): boolean {
  return (tk.ts.getDecorators(method) ?? []).some((decorator) => recogniseKilnDecorator(tk, decorator)?.kind === 'route');
}

/** Whether a handler's awaited return type is serialised by typia, kept on JSON.stringify, or an error. */
function verdictOf(tk: Toolkit, method: ts.MethodDeclaration): Verdict {
  const { ts: tsi, checker } = tk;
  if (tsi.getJSDocTags(method).some((tag) => tag.tagName.text === optOutTag)) return { serialise: false };
  const signature = checker.getSignatureFromDeclaration(method);
  if (signature === undefined) return { serialise: false };
  const returned = checker.getReturnTypeOfSignature(signature);
  const type = checker.getAwaitedType(returned) ?? returned;
  const nothing =
    tsi.TypeFlags.Any | tsi.TypeFlags.Unknown | tsi.TypeFlags.Void | tsi.TypeFlags.Undefined | tsi.TypeFlags.Never | tsi.TypeFlags.Null;
  if (type.flags & nothing) return { serialise: false };
  const found = inspect(tk, type, '', new Set(), 0);
  if (found === undefined) return { serialise: true, form: checker.isArrayType(type) ? 'list' : 'object' };
  if (found.what === 'bigint') {
    const where = found.path === '' ? 'the return type' : `'${found.path}' in the return type`;
    return {
      problem: 'bigintInResponse',
      message:
        `${method.name.getText()} returns a bigint (${where}), which JSON cannot carry (JSON.stringify throws on it): ` +
        'return it as a string (value.toString()) or a number, and declare the return type so',
    };
  }
  return { serialise: false };
}

/** The first part of a return type that is a bigint, or that only JSON.stringify should see ('untyped'). */
function inspect(
  tk: Toolkit,
  type: ts.Type,
  path: string,
  seen: Set<ts.Type>,
  depth: number,
): { path: string; what: 'bigint' | 'untyped' } | undefined {
  const { ts: tsi, checker } = tk;
  if (seen.has(type) || depth > deepest) return undefined;
  seen.add(type);
  if (type.flags & tsi.TypeFlags.BigIntLike) return { path, what: 'bigint' };
  if (type.flags & (tsi.TypeFlags.ESSymbolLike | tsi.TypeFlags.NonPrimitive)) return { path, what: 'untyped' };
  const symbol = type.getSymbol();
  if (
    symbol !== undefined &&
    untypedClasses.has(symbol.name) &&
    (symbol.declarations ?? []).some((d) => d.getSourceFile().isDeclarationFile)
  ) {
    return { path, what: 'untyped' };
  }
  if (type.isUnionOrIntersection()) {
    let untyped: { path: string; what: 'untyped' } | undefined;
    for (const member of type.types) {
      const found = inspect(tk, member, path, seen, depth + 1);
      if (found?.what === 'bigint') return found;
      untyped ??= found as typeof untyped;
    }
    return untyped;
  }
  if (!(type.flags & tsi.TypeFlags.Object)) return undefined;
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    let untyped: { path: string; what: 'untyped' } | undefined;
    for (const item of checker.getTypeArguments(type as ts.TypeReference)) {
      const found = inspect(tk, item, `${path}[]`, seen, depth + 1);
      if (found?.what === 'bigint') return found;
      untyped ??= found as typeof untyped;
    }
    return untyped;
  }
  if (checker.getSignaturesOfType(type, tsi.SignatureKind.Call).length > 0) return undefined;
  const properties = checker.getPropertiesOfType(type);
  const indexes = checker.getIndexInfosOfType(type);
  // `{}` / an empty interface: typia would send `{}` whatever the value holds.
  if (properties.length === 0 && indexes.length === 0) return { path, what: 'untyped' };
  let untyped: { path: string; what: 'untyped' } | undefined;
  for (const property of properties) {
    if (property.flags & (tsi.SymbolFlags.Method | tsi.SymbolFlags.Accessor)) continue;
    if (property.name.startsWith('typia.')) continue;
    const found = inspect(tk, checker.getTypeOfSymbol(property), path === '' ? property.name : `${path}.${property.name}`, seen, depth + 1);
    if (found?.what === 'bigint') return found;
    untyped ??= found as typeof untyped;
  }
  for (const info of indexes) {
    const found = inspect(tk, info.type, `${path}[key]`, seen, depth + 1);
    if (found?.what === 'bigint') return found;
    untyped ??= found as typeof untyped;
  }
  return untyped;
}
