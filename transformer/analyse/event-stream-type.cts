// Analyse stage for `@Sse()` routes: the handler returns an async iterable, and each value it
// yields is one event whose data is projected like a typed response. The data type is the
// iterable's element type with `SseEvent<T>` unwrapped to `T`; strings are sent as their text
// (src/sse/event-stream-response.ts), so an element type that mixes strings with other values
// could not be read back by a client (KILN181).
import type * as ts from 'typescript';
import { type DiagnosticMessage, diagnosticMessage } from '../diagnostics/diagnostic-codes.cjs';
import type { Toolkit } from '../toolkit.cjs';
import { inspect } from './return-type.cjs';
import { type ShapeRef, shapeOfMembers, type UnfilterablePart } from './response-shape.cjs';

export type EventStreamVerdict =
  | { readonly serialise: true; readonly shape: ShapeRef; readonly eventStream: true }
  | { readonly serialise: false }
  | { readonly problem: DiagnosticMessage };

/** Library types whose first type argument is what they yield. */
const iterableNames = new Set(['AsyncGenerator', 'AsyncIterable', 'AsyncIterableIterator', 'AsyncIterator']);

function fromLibrary(symbol: ts.Symbol | undefined): boolean {
  return (symbol?.declarations ?? []).some((d) => d.getSourceFile().isDeclarationFile);
}

/**
 * What an async iterable type yields: the first type argument of the library's async iterable
 * types, or, for an interface that extends one (a hub's `MessageStream<M>`), of its base type.
 */
export function iteratedType(tk: Toolkit, type: ts.Type, depth = 0): ts.Type | undefined {
  if (depth > 8) return undefined;
  const symbol = type.getSymbol();
  if (symbol !== undefined && iterableNames.has(symbol.getName()) && fromLibrary(symbol)) {
    return tk.checker.getTypeArguments(type as ts.TypeReference)[0];
  }
  // `[Symbol.asyncIterator]()`: what it returns is an async iterator of the same values.
  const opener = tk.checker.getPropertiesOfType(type).find((property) => property.getName().startsWith('__@asyncIterator'));
  if (opener === undefined) return undefined;
  const signature = tk.checker.getSignaturesOfType(tk.checker.getTypeOfSymbol(opener), tk.ts.SignatureKind.Call)[0];
  if (signature === undefined) return undefined;
  const iterator = tk.checker.getReturnTypeOfSignature(signature);
  return iterator === type ? undefined : iteratedType(tk, iterator, depth + 1);
}

/** `SseEvent<T>` (Kiln's, recognised by name and its `data`), or undefined. */
function eventData(tk: Toolkit, member: ts.Type): ts.Type | undefined {
  const symbol = member.getSymbol();
  if (symbol?.getName() !== 'SseEvent') return undefined;
  const data = tk.checker.getPropertiesOfType(member).find((property) => property.getName() === 'data');
  return data === undefined ? undefined : tk.checker.getTypeOfSymbol(data);
}

/** The data types of an element type's events: each union member, `SseEvent<T>` unwrapped to `T`. */
export function dataMembers(tk: Toolkit, element: ts.Type): ts.Type[] {
  const members: ts.Type[] = [];
  for (const member of element.isUnion() ? element.types : [element]) {
    const data = eventData(tk, member);
    if (data === undefined) members.push(member);
    else members.push(...(data.isUnion() ? data.types : [data]));
  }
  // `T | SseEvent<T>` is one data type, T.
  return [...new Set(members)];
}

export function eventStreamVerdict(
  tk: Toolkit,
  method: ts.MethodDeclaration,
  type: ts.Type,
  warn: (part: UnfilterablePart) => void,
): EventStreamVerdict {
  const { ts: tsi, checker } = tk;
  const name = method.name.getText();
  const element = iteratedType(tk, type);
  if (element === undefined) {
    return { problem: diagnosticMessage('eventStreamNotIterable', 'notIterable', name, checker.typeToString(type)) };
  }
  const members = dataMembers(tk, element).filter((member) => !(member.flags & (tsi.TypeFlags.Undefined | tsi.TypeFlags.Void)));
  if (members.some((member) => member.flags & (tsi.TypeFlags.Any | tsi.TypeFlags.Unknown))) return { serialise: false };
  const strings = members.filter((member) => member.flags & tsi.TypeFlags.StringLike);
  if (strings.length > 0 && strings.length < members.length) {
    const others = members.filter((member) => !(member.flags & tsi.TypeFlags.StringLike)).map((member) => checker.typeToString(member));
    return { problem: diagnosticMessage('eventStreamMixesText', 'mixed', name, others.join(' | ')) };
  }
  for (const member of members) {
    const found = inspect(tk, member, '', new Set(), 0);
    if (found !== undefined) {
      const where = found.path === '' ? 'the event type' : `'${found.path}' in the event type`;
      return { problem: diagnosticMessage('bigintInResponse', 'bigint', name, where) };
    }
  }
  if (strings.length === members.length) return { serialise: false };
  const { root, unfilterable } = shapeOfMembers(tk, members, method.name);
  for (const part of unfilterable) warn(part);
  return root === 'asIs' ? { serialise: false } : { serialise: true, shape: root, eventStream: true };
}
