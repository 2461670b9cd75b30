import type * as ts from 'typescript';
import { kilnDiagnostic } from './kiln-diagnostic.cjs';
import type { Conversion, FileModel, MethodModel, ParameterModel, RouteModel } from './model.cjs';
import { recogniseBinding, type RecognisedBinding } from './parameter-recognition.cjs';
import { recogniseKilnDecorator } from './route-recognition.cjs';
import { joinRoutePath, routeParamNames, routeShape } from './route-path.cjs';
import { conversionOfType } from './type-conversion.cjs';
import { readItems, reconcileItems } from './items-argument.cjs';
import { lineOf, type Toolkit } from './toolkit.cjs';

/** The analysis of a whole program: what to generate per file, and what is wrong. */
export interface ProgramModel {
  /** Only files that hold Kiln parameter decorators. */
  readonly files: ReadonlyMap<string, FileModel>;
  readonly diagnostics: readonly ts.Diagnostic[];
}

interface ClassContext {
  readonly basePath: string | undefined;
  readonly isMiddleware: boolean;
}

/** Files the transformer looks at: the program's own TypeScript sources. */
export function ownSourceFiles(tk: Toolkit): ts.SourceFile[] {
  return tk.program.getSourceFiles().filter(
    (file) => !file.isDeclarationFile && !tk.program.isSourceFileFromExternalLibrary(file) && /\.[cm]?tsx?$/.test(file.fileName),
  );
}

class Analyser {
  readonly diagnostics: ts.Diagnostic[] = [];
  readonly files = new Map<string, FileModel>();
  readonly #routes = new Map<string, string>();

  constructor(readonly tk: Toolkit, readonly projectDir: string) {}

  file(file: ts.SourceFile): void {
    // Cheap filter: most files of a program hold no decorator at all.
    if (!file.text.includes('@')) return;
    const methods: MethodModel[] = [];
    const ranges: { start: number; end: number }[] = [];
    const references = new Set<string>();
    const visit = (node: ts.Node): void => {
      if (this.tk.ts.isClassLike(node)) this.#class(node, file, methods, ranges, references);
      this.tk.ts.forEachChild(node, visit);
    };
    visit(file);
    if (ranges.length === 0) return;
    let displayName = file.fileName.startsWith(this.projectDir + '/') ? file.fileName.slice(this.projectDir.length + 1) : file.fileName;
    displayName = displayName.replace(/\\/g, '/');
    this.files.set(file.fileName, { fileName: file.fileName, displayName, methods, decoratorRanges: ranges, references: [...references] });
  }

  #class(cls: ts.ClassLikeDeclaration, file: ts.SourceFile, methods: MethodModel[], ranges: { start: number; end: number }[], references: Set<string>): void {
    const { ts: tsi } = this.tk;
    // Outside a @Controller the base path is unknown (a base class's routes may be inherited under any prefix).
    let context: ClassContext = { basePath: undefined, isMiddleware: false };
    let isController = false;
    for (const decorator of tsi.getDecorators(cls) ?? []) {
      const recognised = recogniseKilnDecorator(this.tk, decorator);
      if (recognised?.kind === 'controller') {
        isController = true;
        context = { ...context, basePath: recognised.basePath };
      } else if (recognised?.kind === 'middleware') context = { ...context, isMiddleware: true };
    }
    for (const member of cls.members) {
      const parameters = tsi.isMethodDeclaration(member) || tsi.isConstructorDeclaration(member) || tsi.isSetAccessorDeclaration(member) ? member.parameters : undefined;
      if (parameters === undefined) continue;
      const bindings = parameters.map((parameter) => {
        const found: RecognisedBinding[] = [];
        for (const decorator of tsi.getDecorators(parameter) ?? []) {
          const binding = recogniseBinding(this.tk, decorator);
          if (binding === undefined) continue;
          found.push(binding);
          ranges.push({ start: decorator.getStart(file), end: decorator.getEnd() });
          this.#collectReferences(decorator, references);
        }
        return found;
      });
      const routes: RouteModel[] = [];
      const routeDecorators: ts.Decorator[] = [];
      let handWritten = false;
      if (tsi.isMethodDeclaration(member)) {
        for (const decorator of tsi.getDecorators(member) ?? []) {
          const recognised = recogniseKilnDecorator(this.tk, decorator);
          if (recognised?.kind === 'hand-written-binder') handWritten = true;
          if (recognised?.kind !== 'route') continue;
          const path = recognised.path === undefined || context.basePath === undefined ? undefined : joinRoutePath(context.basePath, recognised.path);
          routes.push({ method: recognised.method, path });
          routeDecorators.push(decorator);
        }
      }
      routes.forEach((route, i) => isController && this.#checkDuplicate(route, routeDecorators[i]!, cls, member));
      const isUse = tsi.isMethodDeclaration(member) && context.isMiddleware && member.name.getText(file) === 'use';
      if (routes.length === 0 && !isUse) {
        for (const binding of bindings.flat()) {
          this.#report('notARouteOrUse', binding.decorator, `${binding.decorator.getText(file)} is on '${member.name?.getText(file) ?? 'constructor'}', which is neither a route (@Get, @Post, ...) nor the use() method of a @Middleware() class`);
        }
        continue;
      }
      if (parameters.length === 0 || !tsi.isMethodDeclaration(member) || handWritten) continue;
      const models = parameters.map((parameter, index) => this.#parameter(parameter, index, bindings[index]!, routes, file));
      // Without a single binding there is nothing to compile: the runtime's start-up check (KILN003) applies too.
      if (bindings.every((found) => found.length === 0)) continue;
      methods.push({
        className: cls.name?.text ?? 'AnonymousClass',
        methodName: member.name.getText(file),
        kind: routes.length > 0 ? 'route' : 'middleware',
        routes,
        parameters: models,
        line: lineOf(file, member.name.getStart(file)),
        nameEnd: member.name.getEnd(),
      });
    }
  }

  #parameter(parameter: ts.ParameterDeclaration, index: number, bindings: RecognisedBinding[], routes: RouteModel[], file: ts.SourceFile): ParameterModel | undefined {
    const parameterName = parameter.name.getText(file);
    if (bindings.length === 0) {
      this.#report('unboundParameter', parameter.name, `parameter '${parameterName}' has no binding decorator: add @Param, @Query, @Header, @Body, @Req or a decorator made by routeRequestParamDecorator`);
      return undefined;
    }
    if (bindings.length > 1) {
      this.#report('twoBindings', bindings[1]!.decorator, `parameter '${parameterName}' has ${bindings.length} Kiln binding decorators; keep one`);
      return undefined;
    }
    const binding = bindings[0]!;
    if (binding.name === undefined) {
      this.#report('nameNotLiteral', binding.nameArgument ?? binding.decorator, `the name of ${binding.decorator.expression.getText(file).split('(')[0]} must be a string literal known at build time`);
      return undefined;
    }
    const { source } = binding;
    const key = source === 'header' ? binding.name.toLowerCase() : binding.name;
    const type = this.tk.checker.getTypeAtLocation(parameter);
    const typeText = (parameter.type?.getText(file) ?? this.tk.checker.typeToString(type)).replace(/\s+/g, ' ');
    const optional = parameter.questionToken !== undefined || parameter.initializer !== undefined || parameter.dotDotDotToken !== undefined;

    if (source === 'param') {
      for (const route of routes) {
        if (route.path !== undefined && !routeParamNames(route.path).includes(key)) {
          this.#report('paramNotInPath', binding.nameArgument ?? binding.decorator, `@Param('${key}') but the route ${route.method} ${route.path} declares no ':${key}'`);
        }
      }
    }
    if (source === 'body' || source === 'request') {
      const admitsUndefined = !!(type.flags & (this.tk.ts.TypeFlags.Any | this.tk.ts.TypeFlags.Unknown)) ||
        (type.isUnion() && type.types.some((t) => t.flags & (this.tk.ts.TypeFlags.Undefined | this.tk.ts.TypeFlags.Void)));
      const required = source === 'body' && !optional && !admitsUndefined;
      return { index, parameterName, source, key, conversion: { kind: 'raw' }, required, typeText };
    }

    const declared = conversionOfType(this.tk, type, parameter.type);
    if (!declared.ok) {
      this.#report('unsupportedType', parameter.type ?? parameter.name, `parameter '${parameterName}': ${declared.reason}. Use string, number, boolean, Date, an object type (JSON), an array of those, an enum or a union of literals`);
      return undefined;
    }
    let conversion: Conversion = declared.conversion;
    if (binding.items !== undefined) {
      const reconciled = reconcileItems(conversion, typeText, readItems(this.tk, binding.items));
      if ('error' in reconciled) {
        this.#report('itemsContradictType', binding.items, `parameter '${parameterName}': ${reconciled.error}`);
        return undefined;
      }
      conversion = reconciled.conversion;
    }
    const neverAbsent = source === 'param' || conversion.kind === 'boolean' || conversion.kind === 'array' || conversion.kind === 'raw';
    const required = !neverAbsent && !optional && !declared.admitsUndefined;
    return { index, parameterName, source, key, conversion, required, typeText };
  }

  #checkDuplicate(route: RouteModel, decorator: ts.Decorator, cls: ts.ClassLikeDeclaration, member: ts.ClassElement): void {
    if (route.path === undefined) return;
    const key = `${route.method} ${routeShape(route.path)}`;
    const file = decorator.getSourceFile();
    const where = `${cls.name?.text ?? 'AnonymousClass'}.${member.name?.getText(file)} (${file.fileName.slice(this.projectDir.length + 1)}:${lineOf(file, decorator.getStart(file))})`;
    const first = this.#routes.get(key);
    if (first === undefined) {
      this.#routes.set(key, where);
      return;
    }
    this.#report('duplicateRoute', decorator, `${route.method} ${route.path} is already declared by ${first}`);
  }

  #collectReferences(decorator: ts.Decorator, references: Set<string>): void {
    const { ts: tsi, checker } = this.tk;
    const visit = (node: ts.Node): void => {
      if (tsi.isTypeNode(node)) return;
      if (tsi.isIdentifier(node)) {
        const parent = node.parent;
        const isName = (tsi.isPropertyAccessExpression(parent) && parent.name === node) || (tsi.isPropertyAssignment(parent) && parent.name === node);
        const symbol = isName ? undefined : checker.getSymbolAtLocation(node);
        if (symbol !== undefined && symbol.flags & (tsi.SymbolFlags.Value | tsi.SymbolFlags.Alias)) {
          // Keep `Sort.Asc` whole: a const enum may only be referenced through its members.
          let reference: ts.Node = node;
          while (tsi.isPropertyAccessExpression(reference.parent) && reference.parent.expression === reference) reference = reference.parent;
          references.add(reference.getText());
        }
        return;
      }
      tsi.forEachChild(node, visit);
    };
    visit(decorator.expression);
  }

  #report(key: Parameters<typeof kilnDiagnostic>[1], node: ts.Node, message: string): void {
    this.diagnostics.push(kilnDiagnostic(this.tk.ts, key, node, message));
  }
}

/** Finds every Kiln-decorated method of the program and analyses its parameters into plain data. */
export function analyseProgram(tk: Toolkit): ProgramModel {
  const options = tk.program.getCompilerOptions();
  const configFile = options['configFilePath'];
  const projectDir = (typeof configFile === 'string' ? configFile.replace(/[\\/][^\\/]*$/, '') : tk.program.getCurrentDirectory()).replace(/\\/g, '/');
  const analyser = new Analyser(tk, projectDir);
  for (const file of ownSourceFiles(tk)) analyser.file(file);
  return { files: analyser.files, diagnostics: analyser.diagnostics };
}
