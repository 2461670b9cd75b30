// A route's `@throws` tag, read for the document: the status and data type of the HttpError it names.
import type * as ts from 'typescript';
import { type DiagnosticMessage, diagnosticMessage } from '../diagnostics/diagnostic-codes.cjs';
import type { ProgramToolkit } from '../toolkit.cjs';
import type { DeclaredProblem } from './response-objects.cjs';
import type { DeclaredError } from './route-doc-comment.cjs';

/** The status of a declared HttpError and the type of its `data` (`undefined` when it has none or it is unknown). */
export interface DeclaredHttpError {
  readonly status: number;
  readonly data: ts.Type | undefined;
  /** The HttpError type itself (its literal `type` and `title`, in problem details). */
  readonly type: ts.Type;
}

/**
 * The status and data type of a `@throws` tag's type: an HttpError subclass
 * (`class BookNotFound extends HttpError<404, { id: number }>`) or `HttpError<404, BookNotFound>`;
 * what is wrong with it otherwise; `undefined` for an error that is not an HttpError. (TypeScript
 * gives a type literal written inside JSDoc no members, so the data's type is named, not written in the tag.)
 */
export function declaredHttpError(tk: ProgramToolkit, declared: DeclaredError): DeclaredHttpError | string | undefined {
  const example = 'must name an HttpError type with a literal status: @throws {BookNotFound} or @throws {HttpError<404, BookNotFound>}';
  let literal = false;
  const visit = (node: ts.Node): void => {
    literal ||= tk.ts.isTypeLiteralNode(node) || tk.ts.isMappedTypeNode(node);
    tk.ts.forEachChild(node, visit);
  };
  visit(declared.type);
  if (literal)
    return `writes the data's type inside the tag, where TypeScript gives it no members: declare it as an interface or type alias and name it (@throws {HttpError<404, BookNotFound>})`;
  const type = tk.checker.getTypeFromTypeNode(declared.type);
  const status = type.getProperty('status');
  const statusType = status === undefined ? undefined : tk.checker.getTypeOfSymbol(status);
  // Another error the method may throw (`@throws {TypeError}`): not an answer of the route.
  if (status === undefined && !declared.type.getText().includes('HttpError')) return undefined;
  if (statusType === undefined || !(statusType.flags & tk.ts.TypeFlags.NumberLiteral)) return example;
  const value = (statusType as ts.NumberLiteralType).value;
  if (!Number.isInteger(value) || value < 400 || value > 599) return `names the status ${value}: an HttpError's is from 400 to 599`;
  const data = type.getProperty('data');
  const dataType = data === undefined ? undefined : tk.checker.getNonNullableType(tk.checker.getTypeOfSymbol(data));
  const unknown = dataType === undefined || !!(dataType.flags & (tk.ts.TypeFlags.Unknown | tk.ts.TypeFlags.Any));
  return { status: value, data: unknown ? undefined : dataType, type };
}

/** The members RFC 9457 defines, which Kiln writes: a data member of one of these names is left out. */
const problemMemberNames = ['type', 'title', 'status', 'detail', 'instance'];

/** A string literal property of a declared HttpError subclass (`override readonly type = '...'`). */
function literalMember(tk: ProgramToolkit, error: ts.Type, name: string): string | undefined {
  const member = error.getProperty(name);
  const type = member === undefined ? undefined : tk.checker.getTypeOfSymbol(member);
  return type !== undefined && type.flags & tk.ts.TypeFlags.StringLiteral ? (type as ts.StringLiteralType).value : undefined;
}

/** Whether JSON writes a value of `type` as an object (not an array, not a primitive). */
function isJsonObject(tk: ProgramToolkit, type: ts.Type): boolean {
  return !!(type.flags & tk.ts.TypeFlags.Object) && !tk.checker.isArrayType(type) && !tk.checker.isTupleType(type);
}

/**
 * How a declared error appears as problem details, or why it cannot (KILN178): an object's
 * members are extension members, so none may be one of RFC 9457's; any other data is `data`.
 */
export function declaredProblem(tk: ProgramToolkit, error: DeclaredHttpError, where: string): DeclaredProblem | DiagnosticMessage {
  const type = literalMember(tk, error.type, 'type');
  const title = literalMember(tk, error.type, 'title');
  if (error.data === undefined) return { dataIsObject: false, type, title };
  const parts = error.data.isUnion() ? error.data.types : [error.data];
  const objects = parts.filter((part) => isJsonObject(tk, part));
  if (objects.length > 0 && objects.length < parts.length)
    return diagnosticMessage('problemDataNotDescribable', 'mixedData', where, error.status, tk.checker.typeToString(error.data));
  for (const part of objects) {
    const reserved = tk.checker.getPropertiesOfType(part).find((property) => problemMemberNames.includes(property.getName()));
    if (reserved !== undefined)
      return diagnosticMessage('problemDataNotDescribable', 'reservedMember', where, error.status, reserved.getName());
  }
  return { dataIsObject: objects.length > 0, type, title };
}
