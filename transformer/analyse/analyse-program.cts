import type * as ts from 'typescript';
import { type DiagnosticMessage, diagnosticMessage } from '../diagnostics/diagnostic-codes.cjs';
import { kilnDiagnostic } from '../diagnostics/kiln-diagnostic.cjs';
import type { Conversion, FileModel, MethodModel, ParameterCheck, ParameterModel, RouteModel } from './model.cjs';
import { recogniseBinding, recogniseTypeBinding, type RecognisedBinding } from '../find/parameter-recognition.cjs';
import { recogniseKilnDecorator } from '../find/route-recognition.cjs';
import { joinRoutePath, routeParamNames, routeShape } from './route-path.cjs';
import { conversionOfType, type DeclaredCheck } from './type-conversion.cjs';
import { readItems, reconcileItems } from './items-argument.cjs';
import { lineOf, type Toolkit } from '../toolkit.cjs';
import { bodyValidationOf, findNonJson, methodTypeOf, parameterTypeQuery, typiaConfigured } from './body-validation.cjs';
import { compilerOptionDiagnostics } from './compiler-options.cjs';
import { recogniseInjection, recogniseTypeInjection, type RecognisedInjection } from '../find/injection-recognition.cjs';
import { InjectionAnalyser } from './injection.cjs';
import type { ClassInjectionModel, DependencyModel } from './model.cjs';

/** The analysis of a whole program: what to generate per file, and what is wrong. */
export interface ProgramModel {
  /** Only files that hold Kiln parameter decorators. */
  readonly files: ReadonlyMap<string, FileModel>;
  readonly diagnostics: readonly ts.Diagnostic[];
}

interface ClassContext {
  readonly isController: boolean;
  readonly basePath: string | undefined;
  readonly isMiddleware: boolean;
}

/** What one file's walk collects. */
interface FileFindings {
  readonly file: ts.SourceFile;
  readonly methods: MethodModel[];
  readonly ranges: { start: number; end: number }[];
  readonly references: Set<string>;
  readonly localReferences: Set<string>;
  readonly injections: ClassInjectionModel[];
  /** Controllers, class middlewares and services found: their files are compiled by Kiln even with nothing to inject (bundlers leave standard decorators to it). */
  managedClasses: number;
}

/** One parameter of a route or `use` method, with what was recognised on it. */
interface ParameterSite {
  readonly parameter: ts.ParameterDeclaration;
  readonly index: number;
  /** Its Kiln binding decorators, or 'reported' when one is in error. */
  readonly bindings: RecognisedBinding[] | 'reported';
  readonly injections: readonly RecognisedInjection[];
  readonly routes: RouteModel[];
  readonly file: ts.SourceFile;
  readonly cls: ts.ClassLikeDeclaration;
  /** The method's injected values so far: an injected parameter adds its own. */
  readonly injected: DependencyModel[];
}

/** A binding whose name is a literal known at build time. */
type NamedBinding = RecognisedBinding & { readonly name: string };

/** A binding with what its parameter declares. */
interface TypedBinding {
  readonly binding: NamedBinding;
  readonly parameterName: string;
  /** The name the request is read by (a header's in lower case). */
  readonly key: string;
  readonly type: ts.Type;
  readonly typeNode: ts.TypeNode | undefined;
  readonly typeText: string;
  /** `?`, a default value or a rest parameter: the value may be absent. */
  readonly optional: boolean;
}

/** Files the transformer looks at: the program's own TypeScript sources. */
export function ownSourceFiles(tk: Toolkit): ts.SourceFile[] {
  return tk.program
    .getSourceFiles()
    .filter((file) => !file.isDeclarationFile && !tk.program.isSourceFileFromExternalLibrary(file) && /\.[cm]?tsx?$/.test(file.fileName));
}

class Analyser {
  readonly diagnostics: ts.Diagnostic[] = [];
  readonly files = new Map<string, FileModel>();
  readonly #routes = new Map<string, string>();
  readonly injection: InjectionAnalyser;

  constructor(
    readonly tk: Toolkit,
    readonly projectDir: string,
  ) {
    this.injection = new InjectionAnalyser(tk, (node, message) => this.#report(node, message));
  }

  file(file: ts.SourceFile): void {
    // Cheap filter: most files of a program hold no decorator at all.
    if (!file.text.includes('@')) return;
    const found: FileFindings = {
      file,
      methods: [],
      ranges: [],
      references: new Set(),
      localReferences: new Set(),
      injections: [],
      managedClasses: 0,
    };
    const visit = (node: ts.Node): void => {
      if (this.tk.ts.isClassLike(node)) this.#class(node, found);
      this.tk.ts.forEachChild(node, visit);
    };
    try {
      visit(file);
    } catch (error) {
      // A bug of ours must not hide the user's own errors: report it on the file and leave the file as written.
      this.#report(file.statements[0] ?? file, diagnosticMessage('generatedCodeError', 'analysisFailed', (error as Error).stack ?? error));
      return;
    }
    if (found.ranges.length === 0 && found.methods.length === 0 && found.injections.length === 0 && found.managedClasses === 0) return;
    this.files.set(file.fileName, {
      fileName: file.fileName,
      displayName: this.#displayName(file.fileName),
      methods: found.methods,
      decoratorRanges: found.ranges,
      references: [...found.references],
      localReferences: [...found.localReferences],
      injections: found.injections,
    });
  }

  #class(cls: ts.ClassLikeDeclaration, found: FileFindings): void {
    const { ts: tsi } = this.tk;
    const context = this.#classContext(cls);
    const managed = context.isController || context.isMiddleware || this.injection.isInjectable(cls);
    const name = cls.name?.text ?? 'AnonymousClass';
    if (managed) found.managedClasses++;
    let constructorParameters: DependencyModel[] = [];
    const handlers: Record<string, DependencyModel[]> = {};
    for (const member of cls.members) {
      const hasParameters = tsi.isMethodDeclaration(member) || tsi.isConstructorDeclaration(member) || tsi.isSetAccessorDeclaration(member);
      if (!hasParameters) continue;
      const bindings = member.parameters.map((parameter) => this.#bindingsOf(parameter, found));
      const injections = member.parameters.map((parameter) => this.#injectionsOf(parameter, found));
      if (tsi.isConstructorDeclaration(member) && managed) {
        constructorParameters = member.parameters.flatMap(
          (parameter, index) =>
            this.injection.dependency(
              cls,
              parameter,
              injections[index]!,
              `${name} constructor parameter '${parameter.name.getText(found.file)}'`,
            ) ?? [],
        );
      }
      const { routes, handWritten, refused } = this.#routesOf(member, cls, context);
      if (refused) continue;
      const isUse = tsi.isMethodDeclaration(member) && context.isMiddleware && member.name.getText(found.file) === 'use';
      if (routes.length === 0 && !isUse) {
        const where = member.name?.getText(found.file) ?? 'constructor';
        for (const binding of bindings.flatMap((list) => (list === 'reported' ? [] : list))) {
          this.#report(binding.node, diagnosticMessage('notARouteOrUse', 'notARoute', binding.node.getText(found.file), where));
        }
        const injectedHere = tsi.isConstructorDeclaration(member) ? (managed ? [] : injections.flat()) : injections.flat();
        for (const injection of injectedHere) {
          this.#report(
            injection.node,
            diagnosticMessage('injectionMisplaced', 'notInjected', injection.node.getText(found.file), where, name),
          );
        }
        continue;
      }
      if (!tsi.isMethodDeclaration(member) || handWritten) continue;
      const methodName = member.name.getText(found.file);
      const injected: DependencyModel[] = [];
      const parameters = member.parameters.map((parameter, index) =>
        this.#parameter({
          parameter,
          index,
          bindings: bindings[index]!,
          injections: injections[index]!,
          routes,
          file: found.file,
          cls,
          injected,
        }),
      );
      if (injected.length > 0) handlers[methodName] = injected;
      // Without a single binding there is nothing to compile: the runtime's start-up check (KILN003) applies too.
      // A method without parameters is still marked as compiled (`noParameters`), so the runtime can tell it apart.
      if (
        parameters.length > 0 &&
        bindings.every((list) => list !== 'reported' && list.length === 0) &&
        injections.every((list) => list.length === 0)
      )
        continue;
      found.methods.push({
        className: cls.name?.text ?? 'AnonymousClass',
        methodName: member.name.getText(found.file),
        kind: routes.length > 0 ? 'route' : 'middleware',
        routes,
        parameters,
        line: lineOf(found.file, member.name.getStart(found.file)),
        nameEnd: member.name.getEnd(),
      });
    }
    if (constructorParameters.length > 0 || Object.keys(handlers).length > 0) {
      const key = cls.name?.getEnd() ?? cls.getStart(found.file);
      found.injections.push({
        className: name,
        classKey: key,
        line: lineOf(found.file, cls.getStart(found.file)),
        constructorParameters,
        handlers,
      });
    }
  }

  /** Kiln's `@Inject`/`@Scope` on one parameter, each recorded to be blanked. */
  #injectionsOf(parameter: ts.ParameterDeclaration, found: FileFindings): RecognisedInjection[] {
    const injections: RecognisedInjection[] = [];
    for (const decorator of this.tk.ts.getDecorators(parameter) ?? []) {
      const injection = recogniseInjection(this.tk, decorator);
      if (injection === undefined) continue;
      found.ranges.push({ start: decorator.getStart(found.file), end: decorator.getEnd() });
      this.#collectReferences(decorator, found);
      injections.push(injection);
    }
    const typeLevel = recogniseTypeInjection(this.tk, parameter);
    if (typeLevel !== undefined) injections.push(typeLevel);
    return injections;
  }

  /** What the class decorators say: the controller's base path, or that this is a class middleware. */
  #classContext(cls: ts.ClassLikeDeclaration): ClassContext {
    // Outside a @Controller the base path is unknown (a base class's routes may be inherited under any prefix).
    let context: ClassContext = { isController: false, basePath: undefined, isMiddleware: false };
    for (const decorator of this.tk.ts.getDecorators(cls) ?? []) {
      const recognised = recogniseKilnDecorator(this.tk, decorator);
      if (recognised?.kind === 'controller') context = { ...context, isController: true, basePath: recognised.basePath };
      else if (recognised?.kind === 'middleware') context = { ...context, isMiddleware: true };
    }
    return context;
  }

  /** The Kiln decorators of one parameter, each recorded to be blanked, and its type-level source; 'reported' when one is in error. */
  #bindingsOf(parameter: ts.ParameterDeclaration, found: FileFindings): RecognisedBinding[] | 'reported' {
    const bindings: RecognisedBinding[] = [];
    let reported = false;
    for (const decorator of this.tk.ts.getDecorators(parameter) ?? []) {
      const binding = recogniseBinding(this.tk, decorator);
      if (binding === undefined) continue;
      found.ranges.push({ start: decorator.getStart(found.file), end: decorator.getEnd() });
      this.#collectReferences(decorator, found);
      if (binding === 'uncalled' || binding === 'uncalled-with-arguments') {
        const written = decorator.expression.getText(found.file);
        this.#report(decorator, diagnosticMessage('uncalledDecorator', 'uncalled', written, binding === 'uncalled' ? '' : "'name'"));
        reported = true;
      } else {
        bindings.push(binding);
      }
    }
    const typeLevel = recogniseTypeBinding(this.tk, parameter);
    if (typeLevel !== undefined) bindings.push(typeLevel);
    return reported ? 'reported' : bindings;
  }

  /** The routes a member declares (checked for duplicates), and whether it has a hand-written binder. */
  #routesOf(
    member: ts.ClassElement,
    cls: ts.ClassLikeDeclaration,
    context: ClassContext,
  ): { routes: RouteModel[]; handWritten: boolean; refused: boolean } {
    const { ts: tsi } = this.tk;
    const routes: RouteModel[] = [];
    let handWritten = false;
    if (!tsi.isMethodDeclaration(member)) return { routes, handWritten, refused: false };
    const isStatic = (tsi.getCombinedModifierFlags(member) & tsi.ModifierFlags.Static) !== 0;
    const isHashPrivate = tsi.isPrivateIdentifier(member.name);
    for (const decorator of tsi.getDecorators(member) ?? []) {
      const recognised = recogniseKilnDecorator(this.tk, decorator);
      if (recognised?.kind === 'hand-written-binder') handWritten = true;
      if (recognised?.kind !== 'route') continue;
      if (isStatic || isHashPrivate) {
        // The router calls a route on a controller instance, by name: neither kind of method is there.
        const where = `${cls.name?.text ?? 'AnonymousClass'}.${member.name.getText()}`;
        this.#report(
          decorator,
          isStatic
            ? diagnosticMessage('staticOrPrivateRoute', 'staticMethod', decorator.getText(), where, cls.name?.text ?? 'controller')
            : diagnosticMessage('staticOrPrivateRoute', 'privateMethod', decorator.getText(), where),
        );
        return { routes, handWritten, refused: true };
      }
      const path =
        recognised.path === undefined || context.basePath === undefined ? undefined : joinRoutePath(context.basePath, recognised.path);
      const route = { method: recognised.method, path };
      routes.push(route);
      if (context.isController) this.#checkDuplicate(route, decorator, cls, member);
    }
    return { routes, handWritten, refused: false };
  }

  /** The model of one parameter of a route or `use` method, or undefined when it is in error (reported). */
  #parameter(site: ParameterSite): ParameterModel | undefined {
    const { bindings, injections } = site;
    if (bindings === 'reported') return undefined;
    const inject = injections.find((injection) => injection.kind === 'inject');
    if (inject !== undefined) return this.#injectedParameter(site, bindings, inject);
    const binding = this.#singleBinding(site, bindings);
    if (binding === undefined) return undefined;
    const typed = this.#typedBinding(site, binding);
    if (binding.source === 'param') this.#checkInPath(site, typed);
    if (binding.source === 'body' || binding.source === 'request') return this.#bodyOrRequestParameter(site, typed);
    return this.#convertedParameter(site, typed);
  }

  /** An `@Inject()` parameter: its dependency joins the method's injected values. */
  #injectedParameter(site: ParameterSite, bindings: RecognisedBinding[], inject: RecognisedInjection): ParameterModel | undefined {
    const { parameter, index, injections, file, cls, injected } = site;
    const parameterName = parameter.name.getText(file);
    if (bindings.length > 0) {
      this.#report(inject.node, diagnosticMessage('twoBindings', 'injectedAndBound', parameterName));
      return undefined;
    }
    const methodName = tsiName(parameter);
    const dependency = this.injection.dependency(
      cls,
      parameter,
      injections,
      `${cls.name?.text ?? 'AnonymousClass'}.${methodName} parameter '${parameterName}'`,
    );
    if (dependency === undefined) return undefined;
    injected.push(dependency);
    const typeText = (((inject.kind === 'inject' ? inject.typeNode : undefined) ?? parameter.type)?.getText(file) ?? '').replace(
      /\s+/g,
      ' ',
    );
    return {
      index,
      parameterName,
      source: 'inject',
      key: String(injected.length - 1),
      conversion: { kind: 'raw' },
      required: false,
      typeText,
    };
  }

  /** The one binding decorator of a parameter with a literal name, or undefined when there is none, several, or no literal name (reported). */
  #singleBinding(site: ParameterSite, bindings: RecognisedBinding[]): NamedBinding | undefined {
    const { parameter, injections, file } = site;
    const parameterName = parameter.name.getText(file);
    if (injections.length > 0 && bindings.length === 0) {
      this.#report(injections[0]!.node, diagnosticMessage('injectionMisplaced', 'scopeAlone', parameterName));
      return undefined;
    }
    if (bindings.length === 0) {
      this.#report(parameter.name, diagnosticMessage('unboundParameter', 'unbound', parameterName));
      return undefined;
    }
    if (bindings.length > 1) {
      this.#report(bindings[1]!.node, diagnosticMessage('twoBindings', 'several', parameterName, bindings.length));
      return undefined;
    }
    const binding = bindings[0]!;
    if (binding.name === undefined) {
      this.#report(
        binding.nameArgument ?? binding.node,
        binding.decorator === undefined
          ? diagnosticMessage('nameNotLiteral', 'typeArgument', binding.label)
          : diagnosticMessage('nameNotLiteral', 'decoratorArgument', binding.label.slice(1)),
      );
      return undefined;
    }
    return binding as NamedBinding;
  }

  /** What the parameter declares: its name, key, type and whether it may be absent. */
  #typedBinding(site: ParameterSite, binding: NamedBinding): TypedBinding {
    const { parameter, file } = site;
    const type = this.tk.checker.getTypeAtLocation(parameter);
    // The type-level form's value type (`number` of `Param<number>`) is what the parameter declares.
    const typeNode = binding.decorator === undefined ? (binding.typeNode ?? parameter.type) : parameter.type;
    return {
      binding,
      parameterName: parameter.name.getText(file),
      key: binding.source === 'header' ? binding.name.toLowerCase() : binding.name,
      type,
      typeNode,
      typeText: (typeNode?.getText() ?? this.tk.checker.typeToString(type)).replace(/\s+/g, ' '),
      optional: parameter.questionToken !== undefined || parameter.initializer !== undefined || parameter.dotDotDotToken !== undefined,
    };
  }

  /** KILN101 for each route whose path does not declare the `@Param` name. */
  #checkInPath(site: ParameterSite, typed: TypedBinding): void {
    const { binding, parameterName, key } = typed;
    for (const route of site.routes) {
      if (route.path !== undefined && !routeParamNames(route.path).includes(key)) {
        this.#report(
          binding.nameArgument ?? binding.node,
          diagnosticMessage(
            'paramNotInPath',
            'notInPath',
            binding.decorator === undefined ? `${parameterName}: ${binding.node.getText(site.file)}` : `@Param('${key}')`,
            route.method,
            route.path,
            key,
          ),
        );
      }
    }
  }

  /** A `@Body` parameter (a scalar, validated by typia, or as it is) or a request property (`@Req()`). */
  #bodyOrRequestParameter(site: ParameterSite, typed: TypedBinding): ParameterModel | undefined {
    const { parameter, index, file } = site;
    const { binding, parameterName, key, type, typeNode, typeText, optional } = typed;
    const { source } = binding;
    const admitsUndefined =
      !!(type.flags & (this.tk.ts.TypeFlags.Any | this.tk.ts.TypeFlags.Unknown)) ||
      (type.isUnion() && type.types.some((t) => t.flags & (this.tk.ts.TypeFlags.Undefined | this.tk.ts.TypeFlags.Void)));
    const required = source === 'body' && !optional && !admitsUndefined;
    const model: ParameterModel = { index, parameterName, source, key, conversion: { kind: 'raw' }, required, typeText };
    if (source === 'request') {
      if (binding.value !== undefined && !this.#accepts(type, binding.value, parameter.initializer !== undefined)) {
        const injected = this.tk.checker.typeToString(binding.value);
        const decorator = binding.node.getText(file);
        this.#report(
          parameter.type ?? parameter.name,
          key === ''
            ? diagnosticMessage('requestPropertyTypeMismatch', 'request', decorator, parameterName, typeText, injected)
            : diagnosticMessage('requestPropertyTypeMismatch', 'property', decorator, parameterName, typeText, key, injected),
        );
        return undefined;
      }
      return model;
    }
    // A string, number, boolean, literal union or enum needs no schema: Kiln checks it itself.
    const scalar = conversionOfType(this.tk, type, typeNode);
    if (scalar.ok && scalar.check === undefined && ['text', 'number', 'boolean', 'enum'].includes(scalar.conversion.kind)) {
      return { ...model, bodyScalar: scalar.conversion as ParameterModel['bodyScalar'] };
    }
    const answer = bodyValidationOf(this.tk, parameter, type, key);
    if ('problems' in answer) {
      for (const problem of answer.problems) this.#report(problem.node, problem.message);
      return model;
    }
    return answer.validation === undefined ? model : { ...model, validation: answer.validation };
  }

  /** A parameter converted from request text (a route parameter, query, header or cookie), checked by typia when its type asks. */
  #convertedParameter(site: ParameterSite, typed: TypedBinding): ParameterModel | undefined {
    const { parameter, index, file } = site;
    const { binding, parameterName, key, type, typeNode, typeText, optional } = typed;
    const { source } = binding;
    const declared = conversionOfType(this.tk, type, typeNode);
    if (!declared.ok) {
      this.#report(parameter.type ?? parameter.name, diagnosticMessage('unsupportedType', 'unconvertible', parameterName, declared.reason));
      return undefined;
    }
    let conversion: Conversion = declared.conversion;
    if (binding.items !== undefined) {
      const reconciled = reconcileItems(conversion, typeText, readItems(this.tk, binding.items));
      if ('error' in reconciled) {
        this.#report(binding.items, diagnosticMessage('itemsContradictType', 'contradicts', parameterName, reconciled.error));
        return undefined;
      }
      conversion = reconciled.conversion;
    }
    const neverAbsent = source === 'param' || conversion.kind === 'boolean' || conversion.kind === 'array' || conversion.kind === 'raw';
    const required = !neverAbsent && !optional && !declared.admitsUndefined;
    const model: ParameterModel = { index, parameterName, source, key, conversion, required, typeText };
    // `items` that turned a tagged string into allowed values decide alone: the tags no longer apply.
    if (declared.check === undefined || conversion !== declared.conversion) return model;
    const check = this.#check(
      parameter,
      type,
      declared.check,
      binding.decorator === undefined
        ? `${parameterName}: ${binding.node.getText(file)}`
        : `${binding.label}('${binding.name}') ${parameterName}: ${typeText}`,
    );
    return check === undefined ? undefined : { ...model, check };
  }

  /**
   * The typia check of a tagged or object-typed parameter: its validator is generated like a typed
   * body's (typia's transformer must be configured, and generated code must name the method's type).
   */
  #check(parameter: ts.ParameterDeclaration, type: ts.Type, declared: DeclaredCheck, written: string): ParameterCheck | undefined {
    const at = parameter.type ?? parameter.name;
    if (declared.kind === 'type') {
      // JSON.parse makes no Date, Map, bigint... anywhere inside: each such place is refused, all in one build.
      const foreign = findNonJson(this.tk, type);
      for (const found of foreign) {
        this.#report(
          at,
          diagnosticMessage(
            'unsupportedType',
            'notFromJson',
            written,
            found.path === '' ? 'the type' : `'${found.path}'`,
            found.what,
            found.advice,
          ),
        );
      }
      if (foreign.length > 0) return undefined;
    }
    const what = declared.kind === 'tags' ? `its typia tags (${declared.tags.map((t) => t.text).join(', ')})` : 'its declared object type';
    if (!typiaConfigured(this.tk.program.getCompilerOptions())) {
      this.#report(
        at,
        diagnosticMessage('typiaNotConfiguredForParameter', declared.kind === 'tags' ? 'tags' : 'objectType', written, what),
      );
      return undefined;
    }
    const owner = methodTypeOf(this.tk, parameter);
    if ('reason' in owner) {
      this.#report(at, diagnosticMessage('parameterTypeNotNameable', 'notNameable', written, what, owner.reason));
      return undefined;
    }
    const nonNullable = `NonNullable<${parameterTypeQuery(this.tk, parameter, owner.type)}>`;
    const file = parameter.getSourceFile();
    return {
      kind: declared.kind,
      item: declared.item,
      tags: declared.tags,
      typeQuery: declared.item ? `${nonNullable}[number]` : nonNullable,
      site: { start: at.getStart(file), end: at.getEnd() },
    };
  }

  /** Whether a parameter of type `declared` accepts every member of `injected` (`undefined` too, unless a default replaces it). */
  #accepts(declared: ts.Type, injected: ts.Type, hasDefault: boolean): boolean {
    const members = injected.isUnion() ? injected.types : [injected];
    return members.every(
      (member) => (hasDefault && member.flags & this.tk.ts.TypeFlags.Undefined) || this.tk.checker.isTypeAssignableTo(member, declared),
    );
  }

  #checkDuplicate(route: RouteModel, decorator: ts.Decorator, cls: ts.ClassLikeDeclaration, member: ts.ClassElement): void {
    if (route.path === undefined) return;
    const key = `${route.method} ${routeShape(route.path)}`;
    const file = decorator.getSourceFile();
    const where = `${cls.name?.text ?? 'AnonymousClass'}.${member.name?.getText(file)} (${this.#displayName(file.fileName)}:${lineOf(file, decorator.getStart(file))})`;
    const first = this.#routes.get(key);
    if (first === undefined) {
      this.#routes.set(key, where);
      return;
    }
    this.#report(decorator, diagnosticMessage('duplicateRoute', 'declaredTwice', route.method, route.path!, first));
  }

  /** A file name as messages and generated comments show it: relative to the project. */
  #displayName(fileName: string): string {
    const normalized = fileName.replace(/\\/g, '/');
    return normalized.startsWith(this.projectDir + '/') ? normalized.slice(this.projectDir.length + 1) : normalized;
  }

  #collectReferences(decorator: ts.Decorator, found: FileFindings): void {
    const { ts: tsi, checker } = this.tk;
    const visit = (node: ts.Node): void => {
      if (tsi.isTypeNode(node)) return;
      if (tsi.isIdentifier(node)) {
        const parent = node.parent;
        const isName =
          (tsi.isPropertyAccessExpression(parent) && parent.name === node) || (tsi.isPropertyAssignment(parent) && parent.name === node);
        const symbol = isName ? undefined : checker.getSymbolAtLocation(node);
        if (symbol === undefined || !(symbol.flags & (tsi.SymbolFlags.Value | tsi.SymbolFlags.Alias))) return;
        const declaration = symbol.declarations?.[0];
        if (declaration === undefined || declaration.getSourceFile() !== found.file) return; // globals need no keeping
        if (!isModuleScope(tsi, declaration)) {
          found.localReferences.add(node.text);
          return;
        }
        // Keep `Sort.Asc` whole: a const enum may only be referenced through its members.
        let reference: ts.Node = node;
        while (tsi.isPropertyAccessExpression(reference.parent) && reference.parent.expression === reference) reference = reference.parent;
        found.references.add(reference.getText());
        return;
      }
      tsi.forEachChild(node, visit);
    };
    visit(decorator.expression);
  }

  #report(node: ts.Node, message: DiagnosticMessage): void {
    this.diagnostics.push(kilnDiagnostic(this.tk.ts, node, message));
  }
}

/** The name of the method a parameter belongs to. */
function tsiName(parameter: ts.ParameterDeclaration): string {
  const method = parameter.parent as ts.MethodDeclaration;
  return method.name.getText();
}

/** Whether a declaration is visible from the end of its file (imports and top-level declarations). */
function isModuleScope(tsi: typeof ts, declaration: ts.Node): boolean {
  for (let node = declaration.parent; node !== undefined && !tsi.isSourceFile(node); node = node.parent) {
    if (tsi.isFunctionLike(node) || tsi.isBlock(node) || tsi.isClassLike(node) || tsi.isModuleBlock(node)) return false;
  }
  return true;
}

/**
 * Finds every Kiln-decorated method of the program and analyses its parameters into plain data;
 * with `only`, the methods of those files (KILN105 then compares routes within them only).
 */
export function analyseProgram(tk: Toolkit, only?: ReadonlySet<string>): ProgramModel {
  const options = tk.program.getCompilerOptions();
  const configFile = options['configFilePath'];
  const projectDir = (typeof configFile === 'string' ? configFile.replace(/[\\/][^\\/]*$/, '') : tk.program.getCurrentDirectory()).replace(
    /\\/g,
    '/',
  );
  const analyser = new Analyser(tk, projectDir);
  for (const file of ownSourceFiles(tk)) if (only === undefined || only.has(file.fileName)) analyser.file(file);
  analyser.injection.reportCycles();
  return { files: analyser.files, diagnostics: [...compilerOptionDiagnostics(tk), ...analyser.diagnostics] };
}
