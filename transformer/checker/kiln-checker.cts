import type * as ts from 'typescript';

/**
 * What Kiln's analysis (transformer/find/, transformer/analyse/, transformer/openapi/) asks the
 * type checker, and nothing more: the types of decorator expressions and of parameters, the
 * properties, signatures, index infos and type arguments of those types, symbols and their
 * declarations, assignability, and a type's text. The questions are asked about TypeScript 6
 * syntax trees (the analysis walks them; their positions are the file's own); the answers are
 * shaped like TypeScript 6's types and symbols.
 *
 * Two implementations: TypeScript 6's `program.getTypeChecker()` (tspc, and the bundler path of a
 * TypeScript 6 project) and {@link import('./typescript-7-checker.cjs').TypeScript7Checker}, which
 * asks TypeScript 7's native checker through `typescript/unstable/sync`.
 */
export type KilnChecker = Pick<
  ts.TypeChecker,
  | 'getTypeAtLocation'
  | 'getSymbolAtLocation'
  | 'getTypeOfSymbolAtLocation'
  | 'getTypeOfSymbol'
  | 'getAliasedSymbol'
  | 'getPropertiesOfType'
  | 'getIndexInfosOfType'
  | 'getSignaturesOfType'
  | 'getSignatureFromDeclaration'
  | 'getReturnTypeOfSignature'
  | 'getAwaitedType'
  | 'getTypeArguments'
  | 'getNonNullableType'
  | 'getTypeFromTypeNode'
  | 'getAnyType'
  | 'isArrayType'
  | 'isTupleType'
  | 'isTypeAssignableTo'
  | 'resolveName'
  | 'typeToString'
>;
