// Analyse stage for dependency injection: the declared types of constructor parameters (and of
// `@Inject()` handler parameters) become a dependency list the emit stage writes beside the class.
// Everything the build can know is checked here: no run-time value, not @Injectable(), cycles,
// tokens whose type does not fit. What only the running app knows is checked by createServer.
import type * as ts from 'typescript';
import { type DiagnosticMessage, diagnosticMessage } from '../diagnostics/diagnostic-codes.cjs';
import type { RecognisedInjection } from '../find/injection-recognition.cjs';
import { isInjectableDecorator } from '../find/injection-recognition.cjs';
import type { DependencyModel } from './model.cjs';
import type { Toolkit } from '../toolkit.cjs';

type Report = (node: ts.Node, message: DiagnosticMessage) => void;

interface Edge {
  readonly target: ts.ClassLikeDeclaration;
  /** The parameter that declares the dependency: where a cycle is reported. */
  readonly node: ts.Node;
}

const scopes: ReadonlySet<string> = new Set(['shared', 'local', 'deep-local']);

function className(cls: ts.ClassLikeDeclaration): string {
  return cls.name?.text ?? 'AnonymousClass';
}

/** The class a symbol names, following import aliases. */
function classDeclarationOf(
  tk: Toolkit,
  symbol: ts.Symbol | undefined,
): { declaration: ts.ClassLikeDeclaration; alias: ts.Symbol | undefined } | undefined {
  if (symbol === undefined) return undefined;
  let target = symbol;
  const alias = symbol.flags & tk.ts.SymbolFlags.Alias ? symbol : undefined;
  if (alias !== undefined) target = tk.checker.getAliasedSymbol(symbol);
  if (!(target.flags & tk.ts.SymbolFlags.Class)) return undefined;
  const declaration = target.declarations?.find((d): d is ts.ClassLikeDeclaration => tk.ts.isClassLike(d));
  return declaration === undefined ? undefined : { declaration, alias };
}

/** Whether a declaration can be named from the end of its file. */
function atModuleScope(tk: Toolkit, declaration: ts.Node): boolean {
  for (let node = declaration.parent; node !== undefined && !tk.ts.isSourceFile(node); node = node.parent) {
    if (tk.ts.isFunctionLike(node) || tk.ts.isBlock(node) || tk.ts.isClassLike(node) || tk.ts.isModuleBlock(node)) return false;
  }
  return true;
}

export class InjectionAnalyser {
  readonly #edges = new Map<ts.ClassLikeDeclaration, Edge[]>();

  constructor(
    private readonly tk: Toolkit,
    private readonly report: Report,
  ) {}

  /** Whether Kiln creates instances of this class: a controller, a class middleware or an `@Injectable()` service. */
  isInjectable(cls: ts.ClassLikeDeclaration): boolean {
    return (this.tk.ts.getDecorators(cls) ?? []).some((decorator) => isInjectableDecorator(this.tk, decorator));
  }

  /**
   * One injected parameter of `cls` (constructor, or handler with `@Inject()`), or `undefined`
   * when it cannot be injected (the reason has been reported).
   */
  dependency(
    cls: ts.ClassLikeDeclaration,
    parameter: ts.ParameterDeclaration,
    injections: readonly RecognisedInjection[],
    site: string,
  ): DependencyModel | undefined {
    const { ts: tsi, checker } = this.tk;
    const inject = injections.find((i) => i.kind === 'inject');
    const scopeDecorator = injections.find((i) => i.kind === 'scope');
    let scope: DependencyModel['scope'] = 'shared';
    if (scopeDecorator?.kind === 'scope') {
      if (scopeDecorator.scope === undefined || !scopes.has(scopeDecorator.scope)) {
        this.report(scopeDecorator.decorator, diagnosticMessage('injectionMisplaced', 'scopeUnknown'));
        return undefined;
      }
      scope = scopeDecorator.scope as DependencyModel['scope'];
    }
    const parameterName = parameter.name.getText();
    const declared = checker.getTypeAtLocation(parameter);
    if (inject === undefined && parameter.initializer !== undefined) return { expression: 'undefined', scope, site, useDefault: true };

    if (inject?.kind === 'inject' && inject.token !== undefined) {
      const token = inject.token;
      if (!this.#reachable(token)) return undefined;
      if (inject.provides !== undefined && !checker.isTypeAssignableTo(inject.provides, declared)) {
        this.report(
          token,
          diagnosticMessage(
            'tokenTypeMismatch',
            'mismatch',
            token.getText(),
            checker.typeToString(inject.provides),
            parameterName,
            checker.typeToString(declared),
          ),
        );
        return undefined;
      }
      const target = classDeclarationOf(this.tk, checker.getSymbolAtLocation(token));
      if (target !== undefined) this.#addEdge(cls, target.declaration, parameter);
      return { expression: token.getText(), scope, site };
    }

    // No token: the declared type must be a class, named where the generated code can name it too.
    const typeNode = (inject?.kind === 'inject' ? inject.typeNode : undefined) ?? parameter.type;
    const reference =
      typeNode !== undefined && tsi.isTypeReferenceNode(typeNode) && typeNode.typeArguments === undefined ? typeNode.typeName : undefined;
    const target = reference === undefined ? undefined : classDeclarationOf(this.tk, checker.getSymbolAtLocation(reference));
    if (reference === undefined || target === undefined) {
      const written = typeNode?.getText() ?? checker.typeToString(declared);
      this.report(
        typeNode ?? parameter.name,
        diagnosticMessage('injectionNoRuntimeValue', 'noValue', parameterName, className(cls), written),
      );
      return undefined;
    }
    if (!this.#reachable(reference)) return undefined;
    const { declaration } = target;
    const own = !declaration.getSourceFile().isDeclarationFile;
    if (own && !this.isInjectable(declaration)) {
      this.report(typeNode!, diagnosticMessage('notInjectable', 'notMarked', parameterName, className(cls), className(declaration)));
      return undefined;
    }
    this.#addEdge(cls, declaration, parameter);
    return { expression: reference.getText(), scope, site };
  }

  /** Reports every dependency cycle among the program's classes, once each, at the parameter that closes it. */
  reportCycles(): void {
    const state = new Map<ts.ClassLikeDeclaration, 'visiting' | 'done'>();
    const stack: ts.ClassLikeDeclaration[] = [];
    const visit = (cls: ts.ClassLikeDeclaration): void => {
      state.set(cls, 'visiting');
      stack.push(cls);
      for (const edge of this.#edges.get(cls) ?? []) {
        const seen = state.get(edge.target);
        if (seen === 'visiting') {
          const cycle = [...stack.slice(stack.indexOf(edge.target)), edge.target].map(className).join(' -> ');
          this.report(edge.node, diagnosticMessage('dependencyCycle', 'cycle', cycle));
        } else if (seen === undefined) {
          visit(edge.target);
        }
      }
      stack.pop();
      state.set(cls, 'done');
    };
    for (const cls of this.#edges.keys()) if (!state.has(cls)) visit(cls);
  }

  #addEdge(from: ts.ClassLikeDeclaration, to: ts.ClassLikeDeclaration, node: ts.Node): void {
    if (to.getSourceFile().isDeclarationFile) return;
    const edges = this.#edges.get(from) ?? [];
    edges.push({ target: to, node });
    this.#edges.set(from, edges);
  }

  /** Whether an expression's root name can be written in the generated code at the end of the file. */
  #reachable(expression: ts.Node): boolean {
    const { ts: tsi, checker } = this.tk;
    let root: ts.Node = expression;
    while (tsi.isPropertyAccessExpression(root) || tsi.isQualifiedName(root))
      root = tsi.isQualifiedName(root) ? root.left : root.expression;
    if (!tsi.isIdentifier(root)) return true;
    const symbol = checker.getSymbolAtLocation(root);
    const declaration = symbol?.declarations?.[0];
    if (declaration === undefined || declaration.getSourceFile() !== expression.getSourceFile()) return true; // a global
    const typeOnly =
      tsi.isImportSpecifier(declaration) || tsi.isImportClause(declaration) || tsi.isNamespaceImport(declaration)
        ? tsi.isTypeOnlyImportOrExportDeclaration(declaration) ||
          (tsi.isImportSpecifier(declaration) && declaration.parent.parent.isTypeOnly)
        : false;
    if (typeOnly) {
      this.report(expression, diagnosticMessage('injectionNotReachable', 'typeOnlyImport', root.getText()));
      return false;
    }
    if (!atModuleScope(this.tk, declaration)) {
      this.report(expression, diagnosticMessage('injectionNotReachable', 'insideFunction', root.getText()));
      return false;
    }
    return true;
  }
}
