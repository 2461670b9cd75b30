// Find, for the document: every route of every `@Controller` class in the program, with what the
// type checker and the program model know about it. Routes without parameters are here too (the
// binder pipeline only models methods that bind something).
import type * as ts from 'typescript';
import type { MethodModel } from '../analyse/model.cjs';
import type { ProgramModel } from '../analyse/analyse-program.cjs';
import { ownSourceFiles } from '../analyse/analyse-program.cjs';
import { joinRoutePath } from '../analyse/route-path.cjs';
import { recogniseKilnDecorator } from '../find/route-recognition.cjs';
import { decoratorCall, type Toolkit } from '../toolkit.cjs';

/** A class middleware on a route: its `use` method, whose bound parameters are inputs of the route too. */
export interface MiddlewareSource {
  readonly use: ts.MethodDeclaration;
  readonly model: MethodModel | undefined;
}

/** One route (one method + path) of a controller. */
export interface OperationSource {
  readonly controller: ts.ClassLikeDeclaration;
  readonly className: string;
  readonly methodName: string;
  readonly method: string;
  /** The full Kiln path (`/books/:id`); `undefined` when it is computed at run time. */
  readonly path: string | undefined;
  readonly declaration: ts.MethodDeclaration;
  /** The route decorator: where a problem of this route is reported. */
  readonly decorator: ts.Decorator;
  /** The bound parameters (absent for a method without parameters). */
  readonly model: MethodModel | undefined;
  /** `@HttpStatus(code)` when its code is known at build time. */
  readonly status: number | undefined;
  /** Class middlewares of the controller and the route, in order. */
  readonly middlewares: readonly MiddlewareSource[];
  /** How many routes the same method declared before this one. */
  readonly routeIndex: number;
  /** Declared by a base class: served under this controller's path, with this controller's name. */
  readonly inherited: boolean;
  /** A `rateLimit(...)` of `@kiln/rate-limit` guards the route (its controller's or its own): it may answer 429. */
  readonly rateLimited: boolean;
  /** `@Sse()`: the route answers `text/event-stream`, one event per value its async iterable yields. */
  readonly eventStream: boolean;
}

const httpStatusDeclaration = /[\\/](?:src|dist[\\/]src)[\\/]decorators[\\/]http-status\.(?:d\.)?ts$/;

function aliased(tk: Toolkit, symbol: ts.Symbol | undefined): ts.Symbol | undefined {
  return symbol !== undefined && symbol.flags & tk.ts.SymbolFlags.Alias ? tk.checker.getAliasedSymbol(symbol) : symbol;
}

/** The code of `@HttpStatus(code)` (a number or an `HttpCode` member), when known at build time. */
function httpStatusOf(tk: Toolkit, decorator: ts.Decorator): number | undefined {
  const call = decoratorCall(tk, decorator);
  if (call === undefined || call.arguments.length === 0) return undefined;
  const callee = tk.ts.isPropertyAccessExpression(call.expression) ? call.expression.name : call.expression;
  const symbol = aliased(tk, tk.checker.getSymbolAtLocation(callee));
  const file = symbol?.declarations?.[0]?.getSourceFile().fileName;
  if (symbol?.getName() !== 'HttpStatus' || file === undefined || !httpStatusDeclaration.test(file)) return undefined;
  const type = tk.checker.getTypeAtLocation(call.arguments[0]!);
  return type.flags & tk.ts.TypeFlags.NumberLiteral ? (type as ts.NumberLiteralType).value : undefined;
}

const rateLimitDeclaration = /[\\/](?:@kiln[\\/]rate-limit|packages[\\/]rate-limit)[\\/]/;

/**
 * Whether a middleware argument is a call of `@kiln/rate-limit`'s `rateLimit(...)`, or a `const`
 * that holds one (`const strict = rateLimit(...)`, shared by several routes, imported or not).
 */
function isRateLimit(tk: Toolkit, argument: ts.Expression, depth = 0): boolean {
  if (tk.ts.isIdentifier(argument) && depth < 4) {
    const declaration = aliased(tk, tk.checker.getSymbolAtLocation(argument))?.valueDeclaration;
    const constant =
      declaration !== undefined &&
      tk.ts.isVariableDeclaration(declaration) &&
      (tk.ts.getCombinedNodeFlags(declaration) & tk.ts.NodeFlags.Const) !== 0;
    return constant && declaration.initializer !== undefined && isRateLimit(tk, declaration.initializer, depth + 1);
  }
  if (!tk.ts.isCallExpression(argument)) return false;
  const symbol = aliased(tk, tk.checker.getSymbolAtLocation(argument.expression));
  const file = symbol?.declarations?.[0]?.getSourceFile().fileName;
  return symbol?.getName() === 'rateLimit' && file !== undefined && rateLimitDeclaration.test(file);
}

/** The `use` method of a `@Middleware()` class that a decorator argument names. */
function middlewareUse(tk: Toolkit, argument: ts.Expression): ts.MethodDeclaration | undefined {
  const symbol = aliased(tk, tk.checker.getSymbolAtLocation(argument));
  const declaration = symbol?.declarations?.find((d) => tk.ts.isClassDeclaration(d));
  if (declaration === undefined || !tk.ts.isClassDeclaration(declaration)) return undefined;
  const isMiddleware = (tk.ts.getDecorators(declaration) ?? []).some((d) => recogniseKilnDecorator(tk, d)?.kind === 'middleware');
  if (!isMiddleware) return undefined;
  return declaration.members.find((m): m is ts.MethodDeclaration => tk.ts.isMethodDeclaration(m) && m.name.getText() === 'use');
}

/** The classes `node` extends, nearest first, as far as their declarations are in the program's source. */
function baseClasses(tk: Toolkit, node: ts.ClassLikeDeclaration): ts.ClassLikeDeclaration[] {
  const bases: ts.ClassLikeDeclaration[] = [];
  const seen = new Set<ts.Node>([node]);
  for (let current: ts.ClassLikeDeclaration | undefined = node; current !== undefined; ) {
    const extended: ts.ExpressionWithTypeArguments | undefined = current.heritageClauses?.find(
      (clause) => clause.token === tk.ts.SyntaxKind.ExtendsKeyword,
    )?.types[0];
    const symbol: ts.Symbol | undefined =
      extended === undefined ? undefined : aliased(tk, tk.checker.getSymbolAtLocation(extended.expression));
    const declaration: ts.ClassLikeDeclaration | undefined = symbol?.declarations?.find((d): d is ts.ClassLikeDeclaration =>
      tk.ts.isClassLike(d),
    );
    if (declaration === undefined || seen.has(declaration) || declaration.getSourceFile().isDeclarationFile) break;
    seen.add(declaration);
    bases.push(declaration);
    current = declaration;
  }
  return bases;
}

/** Every route of every controller of the program, in file and declaration order. */
export function findOperationSources(tk: Toolkit, program: ProgramModel): OperationSource[] {
  const { ts: tsi } = tk;
  const models = new Map<string, MethodModel>();
  for (const file of program.files.values()) {
    for (const method of file.methods) models.set(`${file.fileName}:${method.nameEnd}`, method);
  }
  const modelOf = (method: ts.MethodDeclaration): MethodModel | undefined =>
    models.get(`${method.getSourceFile().fileName}:${method.name.getEnd()}`);
  const middlewaresOf = (args: readonly ts.Expression[]): MiddlewareSource[] =>
    args.flatMap((argument) => {
      const use = middlewareUse(tk, argument);
      return use === undefined ? [] : [{ use, model: modelOf(use) }];
    });

  const sources: OperationSource[] = [];
  const visit = (node: ts.Node): void => {
    if (tsi.isClassLike(node)) {
      let basePath: string | undefined;
      let isController = false;
      let controllerMiddlewares: MiddlewareSource[] = [];
      let controllerLimited = false;
      for (const decorator of tsi.getDecorators(node) ?? []) {
        const recognised = recogniseKilnDecorator(tk, decorator);
        if (recognised?.kind !== 'controller') continue;
        isController = true;
        basePath = recognised.basePath;
        const controllerArguments = decoratorCall(tk, decorator)?.arguments.slice(1) ?? [];
        controllerMiddlewares = middlewaresOf(controllerArguments);
        controllerLimited = controllerArguments.some((argument) => isRateLimit(tk, argument));
      }
      if (isController) {
        // The class's own routes and those it inherits (a controller may extend another, as the
        // guards page shows): the runtime serves every route declared up the chain, under this
        // class's path and middlewares, the base class's first, as its route table lists them.
        const chain = [node, ...baseClasses(tk, node)].reverse();
        const routeIndexes = new Map<string, number>();
        for (const owner of chain) {
          for (const member of owner.members) {
            if (!tsi.isMethodDeclaration(member)) continue;
            const decorators = tsi.getDecorators(member) ?? [];
            const status = decorators.map((d) => httpStatusOf(tk, d)).find((s) => s !== undefined);
            const eventStream = decorators.some((d) => recogniseKilnDecorator(tk, d)?.kind === 'eventStream');
            const methodName = member.name.getText();
            for (const decorator of decorators) {
              const recognised = recogniseKilnDecorator(tk, decorator);
              // A WebSocket route has no HTTP operation to describe (OpenAPI has no WebSockets).
              if (recognised?.kind !== 'route' || recognised.socket) continue;
              const routeIndex = routeIndexes.get(methodName) ?? 0;
              routeIndexes.set(methodName, routeIndex + 1);
              sources.push({
                controller: node,
                className: node.name?.text ?? 'AnonymousClass',
                methodName,
                method: recognised.method,
                path: recognised.path === undefined || basePath === undefined ? undefined : joinRoutePath(basePath, recognised.path),
                declaration: member,
                decorator,
                model: modelOf(member),
                status,
                middlewares: [...controllerMiddlewares, ...middlewaresOf(decoratorCall(tk, decorator)?.arguments.slice(1) ?? [])],
                routeIndex,
                inherited: owner !== node,
                rateLimited: controllerLimited || (decoratorCall(tk, decorator)?.arguments.slice(1) ?? []).some((a) => isRateLimit(tk, a)),
                eventStream,
              });
            }
          }
        }
      }
    }
    tsi.forEachChild(node, visit);
  };
  for (const file of ownSourceFiles(tk)) {
    if (file.text.includes('@')) visit(file);
  }
  return sources;
}
