import type * as ts from 'typescript';
import type { KilnChecker } from './checker/kiln-checker.cjs';

/** What every stage needs: the TypeScript instance that loaded the plugin, the program and the checker the analysis asks (kiln-checker.cts). */
export interface Toolkit {
  readonly ts: typeof ts;
  readonly program: ts.Program;
  readonly checker: KilnChecker;
}

/** A toolkit over TypeScript 6's own checker: typia's metadata (OpenAPI schemas) needs the whole of it. */
export interface ProgramToolkit extends Toolkit {
  readonly checker: ts.TypeChecker;
}

/** The literal string of a type (`'id'`), or `undefined` when the type is not one string literal. */
export function stringLiteralOf(tk: Toolkit, type: ts.Type): string | undefined {
  return type.flags & tk.ts.TypeFlags.StringLiteral ? (type as ts.StringLiteralType).value : undefined;
}

/** A decorator's call expression, or `undefined` for a bare `@name` decorator. */
export function decoratorCall(tk: Toolkit, decorator: ts.Decorator): ts.CallExpression | undefined {
  let expression: ts.Expression = decorator.expression;
  while (tk.ts.isParenthesizedExpression(expression)) expression = expression.expression;
  return tk.ts.isCallExpression(expression) ? expression : undefined;
}

/** 1-based line of a position. */
export function lineOf(file: ts.SourceFile, position: number): number {
  return file.getLineAndCharacterOfPosition(position).line + 1;
}
