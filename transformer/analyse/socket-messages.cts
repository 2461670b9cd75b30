// Analyse stage for WebSocket routes (`@WebSocket`): the declared `SocketHandlers<In, Out>` of a
// handler, read from its return type. `In` is checked by a typia validator (as a typed @Body is),
// named with a type query on the handler itself; `Out` is the shape every sent message is
// projected to (response-shape.cts, as a typed response is).
import type * as ts from 'typescript';
import { diagnosticMessage } from '../diagnostics/diagnostic-codes.cjs';
import { kilnDiagnostic } from '../diagnostics/kiln-diagnostic.cjs';
import { recogniseKilnDecorator } from '../find/route-recognition.cjs';
import type { Toolkit } from '../toolkit.cjs';
import { findNonJson, ownerTypeOf, typiaConfigured } from './body-validation.cjs';
import { decideMethods, type FileMethods } from './method-decisions.cjs';
import { responseShape, type ShapeRef } from './response-shape.cjs';

/** How one WebSocket route reads and writes its messages. */
export interface SocketMessages {
  /** A type expression naming `In` from module scope; undefined when it is `unknown` (messages pass as parsed). */
  readonly incoming: string | undefined;
  /** The shape sent messages are projected to; undefined when `Out` says nothing (`unknown`): JSON.stringify. */
  readonly outgoing: ShapeRef | undefined;
  /** The method's name in the original file: where typia's own errors about `In` are reported. */
  readonly site: { readonly start: number; readonly end: number };
}

/** The WebSocket routes of one file, by the end offset of the method's name (as binders are). */
export type FileSockets = FileMethods<SocketMessages>;

export interface SocketsModel {
  readonly files: ReadonlyMap<string, FileSockets>;
  readonly diagnostics: readonly ts.Diagnostic[];
}

function isSocketRoute(tk: Toolkit, method: ts.MethodDeclaration): boolean {
  return (tk.ts.getDecorators(method) ?? []).some((decorator) => {
    const recognised = recogniseKilnDecorator(tk, decorator);
    return recognised?.kind === 'route' && recognised.socket;
  });
}

/** A type that says nothing about a value: no validator, no projection. */
function saysNothing(tk: Toolkit, type: ts.Type | undefined): boolean {
  return type === undefined || (type.flags & (tk.ts.TypeFlags.Any | tk.ts.TypeFlags.Unknown)) !== 0;
}

/** The type of parameter `index` of the first call signature of property `name` of `type`. */
function parameterOf(tk: Toolkit, type: ts.Type, name: string, index: number, at: ts.Node): ts.Type | undefined {
  const property = type.getProperty(name);
  if (property === undefined) return undefined;
  const member = tk.checker.getNonNullableType(tk.checker.getTypeOfSymbolAtLocation(property, at));
  const parameter = member.getCallSignatures()[0]?.getParameters()[index];
  return parameter === undefined ? undefined : tk.checker.getTypeOfSymbolAtLocation(parameter, at);
}

/** `Out` of the handlers: what the `socket` their handlers are given accepts in `send`. */
function outgoingType(tk: Toolkit, handlers: ts.Type, at: ts.Node): ts.Type | undefined {
  for (const event of ['message', 'open', 'close']) {
    const socket = parameterOf(tk, handlers, event, 0, at);
    if (socket !== undefined) return parameterOf(tk, socket, 'send', 0, at);
  }
  return undefined;
}

/** Every `@WebSocket` route of the program, with its message types read. */
export function analyseSockets(tk: Toolkit, only?: ReadonlySet<string>): SocketsModel {
  const diagnostics: ts.Diagnostic[] = [];
  const typia = typiaConfigured(tk.program.getCompilerOptions());
  const files = decideMethods(tk, only, (node) => (isSocketRoute(tk, node) ? socketMessages(tk, node, typia, diagnostics) : undefined));
  return { files, diagnostics };
}

function socketMessages(
  tk: Toolkit,
  method: ts.MethodDeclaration,
  typia: boolean,
  diagnostics: ts.Diagnostic[],
): SocketMessages | undefined {
  const { checker } = tk;
  const signature = checker.getSignatureFromDeclaration(method);
  if (signature === undefined) return undefined;
  const returned = checker.getReturnTypeOfSignature(signature);
  const handlers = checker.getAwaitedType(returned) ?? returned;
  if (saysNothing(tk, handlers)) return undefined;
  const at = method.name;
  const className = tk.ts.isClassLike(method.parent) ? (method.parent.name?.text ?? 'AnonymousClass') : 'AnonymousClass';
  const route = `${className}.${method.name.getText()}`;
  const site = { start: method.name.getStart(), end: method.name.getEnd() };

  const inType = parameterOf(tk, handlers, 'message', 1, at);
  let incoming: string | undefined;
  if (!saysNothing(tk, inType)) {
    const report = (message: ReturnType<typeof diagnosticMessage>) => diagnostics.push(kilnDiagnostic(tk.ts, at, message));
    const owner = ownerTypeOf(tk, method);
    const written = checker.typeToString(inType!);
    if (!typia) report(diagnosticMessage('socketTypiaNotConfigured', 'messages', route, written));
    else if ('reason' in owner) report(diagnosticMessage('socketTypeNotNameable', 'notNameable', route, owner.reason));
    else {
      const foreign = findNonJson(tk, inType!);
      for (const found of foreign) {
        const where = found.path === '' ? `the message type of ${route}` : `'${found.path}' in the message type of ${route}`;
        report(diagnosticMessage('notJsonInMessage', 'notJson', found.what, where, found.advice));
      }
      if (foreign.length === 0) incoming = `Parameters<NonNullable<Awaited<ReturnType<${owner.type}>>['message']>>[1]`;
    }
  }

  const outType = outgoingType(tk, handlers, at);
  const root = saysNothing(tk, outType) ? 'asIs' : responseShape(tk, outType!, at).root;
  const outgoing = root === 'asIs' ? undefined : root;
  return incoming === undefined && outgoing === undefined ? undefined : { incoming, outgoing, site };
}
