import type * as ts from 'typescript';
import { helpers } from './binder-emitter.cjs';
import { envHelpers } from './env-emitter.cjs';

/** What the emit phase needs to know about one rewritten file. */
export interface EmitPlan {
  /** Where the generated code starts (the original file's length). */
  readonly generatedStart: number;
  /** Binder function name by the method's name end offset. */
  readonly binders: ReadonlyMap<number, string>;
  /** Names declared inside functions that only blanked decorators used (see program-hooks). */
  readonly localReferences: ReadonlySet<string>;
  /** The declared type (original positions) each typia validator was written for (see validator-diagnostics). */
  readonly validatorSites?: ReadonlyMap<string, { readonly start: number; readonly end: number }>;
  /** Dependency-list function name by the class's name end offset (its start when anonymous). */
  readonly dependencyLists?: ReadonlyMap<number, string>;
  /** Typed-response serialiser constant name by the method's name end offset (see serializer-emitter). */
  readonly serializers?: ReadonlyMap<number, string>;
  /** WebSocket message codec constant name by the method's name end offset (see socket-emitter). */
  readonly sockets?: ReadonlyMap<number, string>;
  /** env<T>() plan constant name by the call's end offset (see env-emitter). */
  readonly envCalls?: ReadonlyMap<number, string>;
}

/**
 * The emit-time `before` transformer. It puts `@kiln$b.compiledBinder(binder)` on each method
 * that has a binder (TypeScript then downlevels it like any decorator, so the binder is attached
 * when the class is defined), moves the generated import and constants to the top of the file
 * (so they exist before any class is defined, in ES modules and CommonJS alike), drops the
 * generated `void [...]` statement, and keeps the generated functions out of the source map.
 * Emit-time edits do not move any position the checker reported.
 */
export function emitTransformer(tsi: typeof ts, plans: ReadonlyMap<string, EmitPlan>): ts.TransformerFactory<ts.SourceFile> {
  return (context) => (file) => {
    const plan = plans.get(file.fileName);
    if (plan === undefined) return file;
    const { factory } = context;

    const visitor = (node: ts.Node): ts.Node => {
      if (tsi.isClassDeclaration(node) && plan.dependencyLists !== undefined) {
        const list = plan.dependencyLists.get(node.name?.getEnd() ?? node.getStart());
        if (list !== undefined) return withInjectionPlan(tsi, factory, tsi.visitEachChild(node, visitor, context), list);
      }
      if (plan.envCalls !== undefined && tsi.isCallExpression(node) && node.pos >= 0) {
        const envPlan = plan.envCalls.get(node.getEnd());
        // env<T>(source) becomes kiln$env.readEnv(kiln$envPlan_N, source)
        if (envPlan !== undefined)
          return factory.updateCallExpression(
            node,
            factory.createPropertyAccessExpression(factory.createIdentifier(envHelpers), 'readEnv'),
            undefined,
            [factory.createIdentifier(envPlan), ...node.arguments.map((argument) => tsi.visitNode(argument, visitor) as ts.Expression)],
          );
      }
      if (tsi.isMethodDeclaration(node)) {
        const binder = plan.binders.get(node.name.getEnd());
        const serializer = plan.serializers?.get(node.name.getEnd());
        const socket = plan.sockets?.get(node.name.getEnd());
        if (binder === undefined && serializer === undefined && socket === undefined)
          return plan.envCalls === undefined ? node : tsi.visitEachChild(node, visitor, context);
        const call = (helper: string, name: string) =>
          factory.createDecorator(
            factory.createCallExpression(factory.createPropertyAccessExpression(factory.createIdentifier(helpers), helper), undefined, [
              binderReference(factory, name),
            ]),
          );
        const added = [
          ...(binder === undefined ? [] : [call('compiledBinder', binder)]),
          ...(serializer === undefined ? [] : [call('compiledSerializer', serializer)]),
          ...(socket === undefined ? [] : [call('compiledSocket', socket)]),
        ];
        return factory.updateMethodDeclaration(
          node,
          [...added, ...(node.modifiers ?? [])],
          node.asteriskToken,
          node.name,
          node.questionToken,
          node.typeParameters,
          node.parameters,
          node.type,
          // An env<T>() call inside a route's body is rewritten too.
          plan.envCalls === undefined || node.body === undefined ? node.body : (tsi.visitNode(node.body, visitor) as ts.Block),
        );
      }
      return tsi.visitEachChild(node, visitor, context);
    };

    const top: ts.Statement[] = [];
    const rest: ts.Statement[] = [];
    for (const statement of file.statements) {
      // Generated statements end after the original text; synthesized ones (end -1) are the user's.
      if (statement.end <= plan.generatedStart) {
        rest.push(tsi.visitNode(statement, visitor) as ts.Statement);
      } else if (tsi.isImportDeclaration(statement) || tsi.isImportEqualsDeclaration(statement) || tsi.isVariableStatement(statement)) {
        tsi.setEmitFlags(statement, tsi.EmitFlags.NoSourceMap | tsi.EmitFlags.NoNestedSourceMaps | tsi.EmitFlags.NoLeadingComments);
        top.push(statement);
      } else if (tsi.isFunctionDeclaration(statement)) {
        tsi.setEmitFlags(statement, tsi.EmitFlags.NoSourceMap | tsi.EmitFlags.NoNestedSourceMaps);
        rest.push(statement);
      }
      // The generated `void [...]` statement is dropped.
    }
    // Generated imports and constants go after the file's own leading imports.
    let insertAt = 0;
    while (insertAt < rest.length && isPreamble(tsi, rest[insertAt]!)) insertAt++;
    return factory.updateSourceFile(file, [...rest.slice(0, insertAt), ...top, ...rest.slice(insertAt)]);
  };
}

/**
 * `@kiln$b.injectionPlan(kiln$deps_Class)` on a class, placed among its own decorators (before
 * the first one, or before `export` when it has none) so the decorator list stays valid.
 */
function withInjectionPlan(tsi: typeof ts, factory: ts.NodeFactory, node: ts.ClassDeclaration, list: string): ts.ClassDeclaration {
  const decorator = factory.createDecorator(
    factory.createCallExpression(factory.createPropertyAccessExpression(factory.createIdentifier(helpers), 'injectionPlan'), undefined, [
      factory.createIdentifier(list),
    ]),
  );
  const modifiers = [...(node.modifiers ?? [])];
  const firstDecorator = modifiers.findIndex((modifier) => tsi.isDecorator(modifier));
  modifiers.splice(firstDecorator === -1 ? 0 : firstDecorator, 0, decorator);
  return factory.updateClassDeclaration(node, modifiers, node.name, node.typeParameters, node.heritageClauses, node.members);
}

/** A prologue directive (`'use strict'`) or an import: what stays above the generated preamble. */
function isPreamble(tsi: typeof ts, statement: ts.Statement): boolean {
  if (tsi.isImportDeclaration(statement) || tsi.isImportEqualsDeclaration(statement)) return true;
  return tsi.isExpressionStatement(statement) && tsi.isStringLiteral(statement.expression);
}

/** `kiln$bind_X_y`, or `kiln$b.noParameters` as a property access. */
function binderReference(factory: ts.NodeFactory, binder: string): ts.Expression {
  const [first, ...rest] = binder.split('.');
  return rest.reduce<ts.Expression>(
    (expression, name) => factory.createPropertyAccessExpression(expression, name),
    factory.createIdentifier(first!),
  );
}
