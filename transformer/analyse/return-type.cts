// Analyse stage for typed responses: whether a route handler's return value is projected to its
// declared (or inferred) return type before JSON.stringify, the shape it is projected to
// (response-shape.cts), and how generated code names the type for the 'assert' option's typia
// check. Like typed bodies (body-validation.cts), the type is named with a type query on the
// handler itself (`Awaited<ReturnType<Users['list']>>`), never reprinted.
import type * as ts from 'typescript';
import { type DiagnosticMessage, diagnosticMessage } from '../diagnostics/diagnostic-codes.cjs';
import { typiaConfigured } from './body-validation.cjs';
import { recogniseKilnDecorator } from '../find/route-recognition.cjs';
import { decideMethods, type FileMethods } from './method-decisions.cjs';
import { ownerTypeOf } from './body-validation.cjs';
import { kilnDiagnostic } from '../diagnostics/kiln-diagnostic.cjs';
import type { Toolkit } from '../toolkit.cjs';
import { helpersNamespace } from '../emit/generated-names.cjs';
import { responseShape, type ShapeRef, type UnfilterablePart } from './response-shape.cjs';
import { eventStreamVerdict } from './event-stream-type.cjs';

/** The plugin option `typedResponses`: `true` (default), `false` (JSON.stringify everywhere) or `'assert'`. */
export type TypedResponsesOption = boolean | 'assert';

/** The JSDoc tag that keeps one route on `JSON.stringify`: `/** @jsonStringify *\/`. */
export const optOutTag = 'jsonStringify';

/** How one route's return value is serialised: projected to the shape of its return type, then JSON.stringify. */
export interface ResponseSerialization {
  /** A type expression naming the awaited return type from module scope: `Awaited<ReturnType<Users['list']>>`. */
  readonly typeQuery: string;
  /** What the projection keeps (response-shape.cts). */
  readonly shape: ShapeRef;
  /** The method's name in the original file: where typia's own errors about the type are reported ('assert'). */
  readonly site: { readonly start: number; readonly end: number };
}

/** The serialised routes of one file, by the end offset of the method's name (as binders are). */
export type FileResponses = FileMethods<ResponseSerialization>;

export interface ResponsesModel {
  readonly files: ReadonlyMap<string, FileResponses>;
  readonly diagnostics: readonly ts.Diagnostic[];
  /** KILN152: the parts of return types written as they are. Printed; they never fail a build. */
  readonly warnings: readonly ts.Diagnostic[];
  /** Whether each value is first checked by typia against its type (the `'assert'` option). */
  readonly assert: boolean;
}

/** Why a return type is not serialised from its type: it is not one, or JSON.stringify must see it whole. */
type Verdict =
  | { readonly serialise: true; readonly shape: ShapeRef; readonly eventStream?: true }
  | { readonly serialise: false }
  | { readonly problem: DiagnosticMessage };

/** Nesting deeper than this is not searched (recursive generic types never end). */
const deepest = 24;

/**
 * Finds every route handler of the program and decides how its value is serialised. Without
 * typia's transformer in `plugins` (and `typedResponses` not set explicitly) nothing is
 * serialised from types: such an app keeps `JSON.stringify`, as before typed responses existed.
 */
export function analyseResponses(tk: Toolkit, option: TypedResponsesOption | undefined, only?: ReadonlySet<string>): ResponsesModel {
  const diagnostics: ts.Diagnostic[] = [];
  const warnings = new Map<string, ts.Diagnostic>();
  const assert = option === 'assert';
  if (option === false) return { files: new Map(), diagnostics, warnings: [], assert };
  const typia = typiaConfigured(tk.program.getCompilerOptions());
  const files = decideMethods(tk, only, (node, file): ResponseSerialization | undefined => {
    if (!isRoute(tk, node)) return undefined;
    const verdict = typia || option !== undefined ? verdictOf(tk, node, warnings) : { serialise: false as const };
    if ('problem' in verdict) diagnostics.push(kilnDiagnostic(tk.ts, node.name, verdict.problem));
    else if (verdict.serialise && !typia) {
      diagnostics.push(kilnDiagnostic(tk.ts, node.name, diagnosticMessage('typedResponsesWithoutTypia', 'noTypia')));
    } else if (verdict.serialise) {
      const owner = ownerTypeOf(tk, node);
      // A handler generated code cannot name (a class inside a function, a private method) keeps JSON.stringify.
      if ('type' in owner) {
        const returned = `Awaited<ReturnType<${owner.type}>>`;
        return {
          // An event stream's serialiser writes each event's data: the iterable's element type, SseEvent unwrapped.
          typeQuery: verdict.eventStream ? `${helpersNamespace}.SseData<${returned}>` : returned,
          shape: verdict.shape,
          site: { start: node.name.getStart(file), end: node.name.getEnd() },
        };
      }
    }
    return undefined;
  });
  return { files, diagnostics, warnings: [...warnings.values()], assert };
}

/** Whether a route is marked `@Sse()`: its values are events, each projected to the iterable's element type. */
function isEventStream(tk: Toolkit, method: ts.MethodDeclaration): boolean {
  return (tk.ts.getDecorators(method) ?? []).some((decorator) => recogniseKilnDecorator(tk, decorator)?.kind === 'eventStream');
}

/** An HTTP route: a `@WebSocket` route's value is its handlers, never sent (analyse/socket-messages.cts). */
function isRoute(tk: Toolkit, method: ts.MethodDeclaration): boolean {
  return (tk.ts.getDecorators(method) ?? []).some((decorator) => {
    const recognised = recogniseKilnDecorator(tk, decorator);
    return recognised?.kind === 'route' && !recognised.socket;
  });
}

/** Whether a handler's awaited return type is serialised by typia, kept on JSON.stringify, or an error. */
function verdictOf(tk: Toolkit, method: ts.MethodDeclaration, warnings: Map<string, ts.Diagnostic>): Verdict {
  const { ts: tsi, checker } = tk;
  if (tsi.getJSDocTags(method).some((tag) => tag.tagName.text === optOutTag)) return { serialise: false };
  const signature = checker.getSignatureFromDeclaration(method);
  if (signature === undefined) return { serialise: false };
  const returned = checker.getReturnTypeOfSignature(signature);
  const type = checker.getAwaitedType(returned) ?? returned;
  const nothing =
    tsi.TypeFlags.Any | tsi.TypeFlags.Unknown | tsi.TypeFlags.Void | tsi.TypeFlags.Undefined | tsi.TypeFlags.Never | tsi.TypeFlags.Null;
  if (type.flags & nothing) return { serialise: false };
  if (isEventStream(tk, method)) return eventStreamVerdict(tk, method, type, (part) => warnUnfiltered(tk, method, part, warnings));
  const found = inspect(tk, type, '', new Set(), 0);
  if (found === undefined) {
    const { root, unfilterable } = responseShape(tk, type, method.name);
    for (const part of unfilterable) warnUnfiltered(tk, method, part, warnings);
    return root === 'asIs' ? { serialise: false } : { serialise: true, shape: root };
  }
  const where = found.path === '' ? 'the return type' : `'${found.path}' in the return type`;
  return { problem: diagnosticMessage('bigintInResponse', 'bigint', method.name.getText(), where) };
}

/** KILN152 at the declaration of the property holding a part written as it is (once per place and part). */
function warnUnfiltered(tk: Toolkit, method: ts.MethodDeclaration, part: UnfilterablePart, warnings: Map<string, ts.Diagnostic>): void {
  const named = (part.site as { name?: ts.Node }).name;
  const node = named !== undefined && tk.ts.isPropertyName(named as ts.PropertyName) ? named : part.site;
  const key = `${node.getSourceFile().fileName}:${node.pos}:${part.what}`;
  if (warnings.has(key)) return;
  const where = part.path === '' ? 'the value' : `'${part.path}'`;
  const owner = tk.ts.isClassDeclaration(method.parent) && method.parent.name !== undefined ? `${method.parent.name.text}.` : '';
  warnings.set(
    key,
    kilnDiagnostic(
      tk.ts,
      node,
      diagnosticMessage('unfilterableResponsePart', 'sentAsItIs', where, `${owner}${method.name.getText()}`, part.what),
    ),
  );
}

/** The path of the first bigint in a return type (KILN150), not looking into built-in classes. */
export function inspect(
  tk: Toolkit,
  type: ts.Type,
  path: string,
  seen: Set<ts.Type>,
  depth: number,
): { path: string; what: 'bigint' } | undefined {
  const { ts: tsi, checker } = tk;
  if (seen.has(type) || depth > deepest) return undefined;
  seen.add(type);
  if (type.flags & tsi.TypeFlags.BigIntLike) return { path, what: 'bigint' };
  if (type.isUnionOrIntersection()) {
    for (const member of type.types) {
      const found = inspect(tk, member, path, seen, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!(type.flags & tsi.TypeFlags.Object)) return undefined;
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    for (const item of checker.getTypeArguments(type as ts.TypeReference)) {
      const found = inspect(tk, item, `${path}[]`, seen, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if ((type.getSymbol()?.declarations ?? []).some((d) => d.getSourceFile().isDeclarationFile)) return undefined;
  if (checker.getSignaturesOfType(type, tsi.SignatureKind.Call).length > 0) return undefined;
  for (const property of checker.getPropertiesOfType(type)) {
    if (property.flags & (tsi.SymbolFlags.Method | tsi.SymbolFlags.Accessor)) continue;
    if (property.name.startsWith('typia.')) continue;
    const found = inspect(tk, checker.getTypeOfSymbol(property), path === '' ? property.name : `${path}.${property.name}`, seen, depth + 1);
    if (found !== undefined) return found;
  }
  for (const info of checker.getIndexInfosOfType(type)) {
    const found = inspect(tk, info.type, `${path}[key]`, seen, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
