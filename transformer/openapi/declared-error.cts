// A route's `@throws` tag, read for the document: the status and data type of the HttpError it names.
import type * as ts from 'typescript';
import type { ProgramToolkit } from '../toolkit.cjs';
import type { DeclaredError } from './route-doc-comment.cjs';

/** The status of a declared HttpError and the type of its `data` (`undefined` when it has none or it is unknown). */
export interface DeclaredHttpError {
  readonly status: number;
  readonly data: ts.Type | undefined;
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
  return { status: value, data: unknown ? undefined : dataType };
}
