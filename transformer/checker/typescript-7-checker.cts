import type * as ts from 'typescript';
import type { KilnChecker } from './kiln-checker.cjs';

// The parts of TypeScript 7's `typescript/unstable/sync` this file uses, declared here: its own
// declaration files are written for TypeScript 7 (`.ts` imports, `#enums/*`), which Kiln's build
// (TypeScript 6) does not read.
interface Node7 {
  readonly kind: number;
  readonly pos: number;
  readonly end: number;
  forEachChild<T>(visitor: (node: Node7) => T): T | undefined;
}
interface NodeHandle7 {
  readonly path: string;
  readonly kind: number;
  resolve(): Node7 | undefined;
}
interface Symbol7 {
  readonly id: number;
  readonly name: string;
  readonly escapedName: string;
  readonly flags: number;
  readonly declarations: readonly NodeHandle7[];
  readonly valueDeclaration: NodeHandle7 | undefined;
}
interface Type7 {
  readonly id: number;
  readonly flags: number;
  readonly objectFlags: number;
  readonly value: string | number | boolean | bigint;
  getSymbol(): Symbol7 | undefined;
  getAliasSymbol(): Symbol7 | undefined;
  getTypes(): readonly Type7[] | undefined;
  getTarget(): Type7;
  isTypeReference(): boolean;
}
interface Signature7 {
  readonly id: number;
  readonly declaration?: NodeHandle7;
  getParameters(): readonly Symbol7[];
}
interface Checker7 {
  getTypeAtLocation(node: Node7): Type7 | undefined;
  getSymbolAtLocation(node: Node7): Symbol7 | undefined;
  getTypeOfSymbolAtLocation(symbol: Symbol7, location: Node7): Type7;
  getTypeOfSymbol(symbol: Symbol7): Type7 | undefined;
  getAliasedSymbol(symbol: Symbol7): Symbol7;
  getPropertiesOfType(type: Type7): readonly Symbol7[];
  getPropertyOfType(type: Type7, name: string): Symbol7 | undefined;
  getIndexInfosOfType(type: Type7): readonly { keyType: Type7; valueType: Type7; isReadonly: boolean }[];
  getSignaturesOfType(type: Type7, kind: number): readonly Signature7[];
  getSignatureFromDeclaration(node: Node7): Signature7 | undefined;
  getReturnTypeOfSignature(signature: Signature7): Type7 | undefined;
  getTypeArguments(type: Type7): readonly Type7[];
  getNonNullableType(type: Type7): Type7 | undefined;
  getTypeFromTypeNode(node: Node7): Type7 | undefined;
  getAnyType(): Type7;
  isArrayType(type: Type7): boolean;
  isTupleType(type: Type7): boolean;
  isTypeAssignableTo(source: Type7, target: Type7): boolean;
  resolveName(name: string, meaning: number, location?: Node7, excludeGlobals?: boolean): Symbol7 | undefined;
  typeToString(type: Type7, enclosing?: Node7, flags?: number): string;
}
export interface Project7 {
  readonly configFileName: string;
  readonly checker: Checker7;
  readonly program: { getSourceFile(fileName: string): Node7 | undefined };
}
export interface Snapshot7 {
  getProject(configFileName: string): Project7 | undefined;
  getProjects(): readonly Project7[];
  dispose(): void;
}
export interface Api7 {
  updateSnapshot(params?: { openProject?: string; fileChanges?: { changed?: string[] } }): Snapshot7;
  close(): void;
}
/** Where TypeScript 7 reads files: `undefined` falls back to the disk. */
export interface FileSystem7 {
  readFile?: (fileName: string) => string | null | undefined;
}
/** `typescript/unstable/sync` (TypeScript 7): the API, its enums. */
export interface TypeScript7Module {
  readonly API: new (options: { cwd?: string; fs?: FileSystem7 }) => Api7;
  readonly TypeFlags: Record<string, number | string>;
  readonly ObjectFlags: Record<string, number | string>;
  readonly SymbolFlags: Record<string, number | string>;
  readonly SignatureKind: Record<string, number | string>;
}
/** `typescript/unstable/ast` (TypeScript 7): its `SyntaxKind`. */
export interface TypeScript7Ast {
  readonly SyntaxKind: Record<string, number | string>;
}

/**
 * Translates flags between two enums with the same member names and different values (TypeScript
 * 6 and 7 number `TypeFlags`, `SymbolFlags`, ... differently): one bit at a time, by name.
 */
class FlagTranslation {
  readonly #bits: [number, number][] = [];
  constructor(from: Record<string, number | string>, to: Record<string, number | string>) {
    for (const [name, value] of Object.entries(from)) {
      const target = to[name];
      if (typeof value !== 'number' || typeof target !== 'number') continue;
      if (value === 0 || (value & (value - 1)) !== 0 || target === 0 || (target & (target - 1)) !== 0) continue; // single bits only
      this.#bits.push([value, target]);
    }
  }
  map(flags: number): number {
    let result = 0;
    for (const [from, to] of this.#bits) if (flags & from) result |= to;
    return result;
  }
}

/**
 * {@link KilnChecker} over TypeScript 7's native checker (`typescript/unstable/sync`): the analysis
 * walks TypeScript 6 syntax trees of the same files, and each question about a node is asked
 * about the TypeScript 7 node at the same place (same start, end and kind). Answers come back as
 * objects shaped like TypeScript 6's types, symbols and signatures (only what the analysis reads),
 * with flags translated by name; declarations map back to the TypeScript 6 nodes at their place.
 *
 * What TypeScript 7's API has no question for is derived from what it has: `getAwaitedType` (the
 * type argument of a `Promise`/`PromiseLike` reference, recursively).
 */
export class TypeScript7Checker implements KilnChecker {
  readonly #ts: typeof ts;
  readonly #program: ts.Program;
  readonly #checker: Checker7;
  readonly #project: Project7;
  readonly #typeFlags: FlagTranslation;
  readonly #objectFlags: FlagTranslation;
  readonly #symbolFlags: FlagTranslation;
  readonly #symbolFlagsBack: FlagTranslation;
  readonly #callKind: number;
  readonly #constructKind: number;
  readonly #kindNames7: Record<string, number | string>;
  #kindNames6: Map<number, string> | undefined;
  #libraries: Map<string, ts.SourceFile> | undefined;
  readonly #types = new Map<number, ts.Type>();
  readonly #symbols = new Map<number, ts.Symbol>();
  readonly #signatures = new Map<number, ts.Signature>();
  readonly #nodes7 = new Map<string, Map<string, Node7>>();
  readonly #nodes6 = new Map<string, Map<string, ts.Node>>();

  constructor(tsi: typeof ts, program: ts.Program, ts7: TypeScript7Module, ast7: TypeScript7Ast, project: Project7) {
    this.#ts = tsi;
    this.#program = program;
    this.#project = project;
    this.#checker = project.checker;
    this.#typeFlags = new FlagTranslation(ts7.TypeFlags, tsi.TypeFlags as unknown as Record<string, number>);
    this.#objectFlags = new FlagTranslation(ts7.ObjectFlags, tsi.ObjectFlags as unknown as Record<string, number>);
    this.#symbolFlags = new FlagTranslation(ts7.SymbolFlags, tsi.SymbolFlags as unknown as Record<string, number>);
    this.#symbolFlagsBack = new FlagTranslation(tsi.SymbolFlags as unknown as Record<string, number>, ts7.SymbolFlags);
    this.#callKind = ts7.SignatureKind['Call'] as number;
    this.#constructKind = ts7.SignatureKind['Construct'] as number;
    this.#kindNames7 = ast7.SyntaxKind;
  }

  // ---- nodes: TypeScript 6 <-> TypeScript 7, by place and kind ----

  /** TypeScript 6's kind as TypeScript 7 names it (both enums also hold marker aliases such as `FirstToken`). */
  #kindName6(kind: number): string {
    if (this.#kindNames6 === undefined) {
      this.#kindNames6 = new Map();
      const kinds6 = this.#ts.SyntaxKind as unknown as Record<string, number>;
      for (const [name, value] of Object.entries(this.#kindNames7)) {
        if (typeof value !== 'number' || this.#kindNames7[value] !== name || kinds6[name] === undefined) continue;
        this.#kindNames6.set(kinds6[name], name);
      }
    }
    return this.#kindNames6.get(kind) ?? `kind${kind}`;
  }

  #node7(node: ts.Node): Node7 {
    const file = node.getSourceFile();
    let index = this.#nodes7.get(file.fileName);
    if (index === undefined) {
      index = new Map();
      const root = this.#project.program.getSourceFile(file.fileName);
      if (root === undefined) throw new Error(`TypeScript 7's program has no ${file.fileName}`);
      const names = this.#kindNames7;
      const visit = (child: Node7): void => {
        const key = `${child.pos}:${child.end}:${names[child.kind]}`;
        if (!index!.has(key)) index!.set(key, child);
        child.forEachChild(visit);
      };
      index.set(`${root.pos}:${root.end}:SourceFile`, root);
      root.forEachChild(visit);
      this.#nodes7.set(file.fileName, index);
    }
    const found = index.get(`${node.pos}:${node.end}:${this.#kindName6(node.kind)}`);
    if (found === undefined) throw new Error(`no TypeScript 7 node for ${this.#kindName6(node.kind)} at ${file.fileName}:${node.pos}`);
    return found;
  }

  #node6(handle: NodeHandle7 | undefined): ts.Node | undefined {
    if (handle === undefined) return undefined;
    const node = handle.resolve();
    if (node === undefined) return undefined;
    const file = this.#program.getSourceFile(handle.path);
    if (file === undefined) return this.#libraryStandIn(handle, node);
    let index = this.#nodes6.get(file.fileName);
    if (index === undefined) {
      index = new Map();
      const visit = (child: ts.Node): void => {
        const key = `${child.pos}:${child.end}:${this.#kindName6(child.kind)}`;
        if (!index!.has(key)) index!.set(key, child);
        this.#ts.forEachChild(child, visit);
      };
      this.#ts.forEachChild(file, visit);
      this.#nodes6.set(file.fileName, index);
    }
    return index.get(`${node.pos}:${node.end}:${this.#kindNames7[node.kind]}`);
  }

  /**
   * A declaration in one of TypeScript 7's own lib files (`lib.es5.d.ts` beside its binary), which
   * TypeScript 6's program does not hold: a stand-in node of the same kind and place whose source
   * file is TypeScript 6's lib file of the same name, so "declared in a default library" and "in a
   * declaration file" answer the same. It has no children (the analysis reads none of a lib's).
   */
  #libraryStandIn(handle: NodeHandle7, node: Node7): ts.Node | undefined {
    const baseName = handle.path.slice(handle.path.lastIndexOf('/') + 1);
    if (!/^lib\.[\w.]*\.d\.ts$/.test(baseName)) return undefined;
    this.#libraries ??= new Map(
      this.#program
        .getSourceFiles()
        .filter((file) => this.#program.isSourceFileDefaultLibrary(file))
        .map((file) => [file.fileName.slice(file.fileName.lastIndexOf('/') + 1), file]),
    );
    const file = this.#libraries.get(baseName) ?? this.#libraries.get('lib.es5.d.ts');
    if (file === undefined) return undefined;
    const kinds6 = this.#ts.SyntaxKind as unknown as Record<string, number>;
    return {
      kind: kinds6[this.#kindNames7[node.kind] as string],
      pos: node.pos,
      end: node.end,
      parent: file,
      getSourceFile: () => file,
    } as unknown as ts.Node;
  }

  // ---- answers shaped like TypeScript 6's ----

  #type(type: Type7): ts.Type;
  #type(type: Type7 | undefined): ts.Type | undefined;
  #type(type: Type7 | undefined): ts.Type | undefined {
    if (type === undefined) return undefined;
    const known = this.#types.get(type.id);
    if (known !== undefined) return known;
    const self = this;
    const flags = this.#typeFlags.map(type.flags);
    const wrapped = {
      raw: type,
      flags,
      objectFlags: this.#objectFlags.map(type.objectFlags ?? 0),
      get value() {
        return typeof type.value === 'bigint'
          ? { negative: type.value < 0n, base10Value: String(type.value < 0n ? -type.value : type.value) }
          : type.value;
      },
      get symbol() {
        return self.#symbol(type.getSymbol());
      },
      get aliasSymbol() {
        return self.#symbol(type.getAliasSymbol());
      },
      get types() {
        return (type.getTypes() ?? []).map((member) => self.#type(member));
      },
      get target() {
        return type.isTypeReference() ? self.#type(type.getTarget()) : undefined;
      },
      getSymbol: () => self.#symbol(type.getSymbol()),
      getProperty: (name: string) => self.#symbol(self.#checker.getPropertyOfType(type, name)),
      getProperties: () => self.#checker.getPropertiesOfType(type).map((symbol) => self.#symbol(symbol)),
      getCallSignatures: () => self.#checker.getSignaturesOfType(type, self.#callKind).map((s) => self.#signature(s)),
      getConstructSignatures: () => self.#checker.getSignaturesOfType(type, self.#constructKind).map((s) => self.#signature(s)),
      isUnion: () => !!(flags & self.#ts.TypeFlags.Union),
      isIntersection: () => !!(flags & self.#ts.TypeFlags.Intersection),
      isUnionOrIntersection: () => !!(flags & self.#ts.TypeFlags.UnionOrIntersection),
      isLiteral: () => !!(flags & (self.#ts.TypeFlags.StringLiteral | self.#ts.TypeFlags.NumberLiteral | self.#ts.TypeFlags.BigIntLiteral)),
      isStringLiteral: () => !!(flags & self.#ts.TypeFlags.StringLiteral),
      isNumberLiteral: () => !!(flags & self.#ts.TypeFlags.NumberLiteral),
      isTypeParameter: () => !!(flags & self.#ts.TypeFlags.TypeParameter),
      isClassOrInterface: () => !!(self.#objectFlags.map(type.objectFlags ?? 0) & self.#ts.ObjectFlags.ClassOrInterface),
      isClass: () => !!(self.#objectFlags.map(type.objectFlags ?? 0) & self.#ts.ObjectFlags.Class),
    } as unknown as ts.Type;
    this.#types.set(type.id, wrapped);
    return wrapped;
  }

  #raw(type: ts.Type): Type7 {
    return (type as unknown as { raw: Type7 }).raw;
  }

  #symbol(symbol: Symbol7): ts.Symbol;
  #symbol(symbol: Symbol7 | undefined): ts.Symbol | undefined;
  #symbol(symbol: Symbol7 | undefined): ts.Symbol | undefined {
    if (symbol === undefined) return undefined;
    const known = this.#symbols.get(symbol.id);
    if (known !== undefined) return known;
    const self = this;
    let declarations: ts.Declaration[] | undefined;
    const wrapped = {
      raw: symbol,
      name: symbol.name,
      escapedName: symbol.escapedName,
      flags: this.#symbolFlags.map(symbol.flags),
      getName: () => symbol.name,
      getEscapedName: () => symbol.escapedName,
      getFlags: () => self.#symbolFlags.map(symbol.flags),
      get declarations() {
        declarations ??= symbol.declarations.flatMap((handle) => (self.#node6(handle) as ts.Declaration | undefined) ?? []);
        return declarations;
      },
      get valueDeclaration() {
        return self.#node6(symbol.valueDeclaration);
      },
      getDeclarations: () => (wrapped as ts.Symbol).declarations,
    } as unknown as ts.Symbol;
    this.#symbols.set(symbol.id, wrapped);
    return wrapped;
  }

  #rawSymbol(symbol: ts.Symbol): Symbol7 {
    return (symbol as unknown as { raw: Symbol7 }).raw;
  }

  #signature(signature: Signature7): ts.Signature {
    const known = this.#signatures.get(signature.id);
    if (known !== undefined) return known;
    const self = this;
    const wrapped = {
      raw: signature,
      getReturnType: () => self.#type(self.#checker.getReturnTypeOfSignature(signature))!,
      getParameters: () => signature.getParameters().map((symbol) => self.#symbol(symbol)),
      getDeclaration: () => self.#node6(signature.declaration),
      get declaration() {
        return self.#node6(signature.declaration);
      },
    } as unknown as ts.Signature;
    this.#signatures.set(signature.id, wrapped);
    return wrapped;
  }

  // ---- the questions ----

  getTypeAtLocation(node: ts.Node): ts.Type {
    return this.#type(this.#checker.getTypeAtLocation(this.#node7(node))) ?? this.getAnyType();
  }
  getSymbolAtLocation(node: ts.Node): ts.Symbol | undefined {
    return this.#symbol(this.#checker.getSymbolAtLocation(this.#node7(node)));
  }
  getTypeOfSymbolAtLocation(symbol: ts.Symbol, node: ts.Node): ts.Type {
    return this.#type(this.#checker.getTypeOfSymbolAtLocation(this.#rawSymbol(symbol), this.#node7(node)));
  }
  getTypeOfSymbol(symbol: ts.Symbol): ts.Type {
    return this.#type(this.#checker.getTypeOfSymbol(this.#rawSymbol(symbol))) ?? this.getAnyType();
  }
  getAliasedSymbol(symbol: ts.Symbol): ts.Symbol {
    return this.#symbol(this.#checker.getAliasedSymbol(this.#rawSymbol(symbol)));
  }
  getPropertiesOfType(type: ts.Type): ts.Symbol[] {
    return this.#checker.getPropertiesOfType(this.#raw(type)).map((symbol) => this.#symbol(symbol));
  }
  getIndexInfosOfType(type: ts.Type): readonly ts.IndexInfo[] {
    return this.#checker.getIndexInfosOfType(this.#raw(type)).map((info) => ({
      keyType: this.#type(info.keyType),
      type: this.#type(info.valueType),
      isReadonly: info.isReadonly,
    }));
  }
  getSignaturesOfType(type: ts.Type, kind: ts.SignatureKind): readonly ts.Signature[] {
    const kind7 = kind === this.#ts.SignatureKind.Call ? this.#callKind : this.#constructKind;
    return this.#checker.getSignaturesOfType(this.#raw(type), kind7).map((signature) => this.#signature(signature));
  }
  getSignatureFromDeclaration(declaration: ts.SignatureDeclaration): ts.Signature | undefined {
    const signature = this.#checker.getSignatureFromDeclaration(this.#node7(declaration));
    return signature === undefined ? undefined : this.#signature(signature);
  }
  getReturnTypeOfSignature(signature: ts.Signature): ts.Type {
    return this.#type(this.#checker.getReturnTypeOfSignature((signature as unknown as { raw: Signature7 }).raw)) ?? this.getAnyType();
  }
  /** TypeScript 7's API has no `getAwaitedType`: the type argument of a Promise or PromiseLike reference, recursively. */
  getAwaitedType(type: ts.Type): ts.Type | undefined {
    let current = type;
    for (let depth = 0; depth < 10; depth++) {
      const raw = this.#raw(current);
      const name = raw.isTypeReference() ? raw.getTarget().getSymbol()?.name : undefined;
      if (name !== 'Promise' && name !== 'PromiseLike') return current;
      const [argument] = this.#checker.getTypeArguments(raw);
      if (argument === undefined) return current;
      current = this.#type(argument);
    }
    return current;
  }
  getTypeArguments(type: ts.TypeReference): readonly ts.Type[] {
    return this.#checker.getTypeArguments(this.#raw(type)).map((argument) => this.#type(argument));
  }
  getNonNullableType(type: ts.Type): ts.Type {
    return this.#type(this.#checker.getNonNullableType(this.#raw(type))) ?? type;
  }
  getTypeFromTypeNode(node: ts.TypeNode): ts.Type {
    return this.#type(this.#checker.getTypeFromTypeNode(this.#node7(node))) ?? this.getAnyType();
  }
  getAnyType(): ts.Type {
    return this.#type(this.#checker.getAnyType());
  }
  isArrayType(type: ts.Type): boolean {
    return this.#checker.isArrayType(this.#raw(type));
  }
  isTupleType(type: ts.Type): boolean {
    return this.#checker.isTupleType(this.#raw(type));
  }
  isTypeAssignableTo(source: ts.Type, target: ts.Type): boolean {
    return this.#checker.isTypeAssignableTo(this.#raw(source), this.#raw(target));
  }
  resolveName(name: string, location: ts.Node | undefined, meaning: ts.SymbolFlags, excludeGlobals: boolean): ts.Symbol | undefined {
    const at = location === undefined ? undefined : this.#node7(location);
    return this.#symbol(this.#checker.resolveName(name, this.#symbolFlagsBack.map(meaning), at, excludeGlobals));
  }
  /** TypeScript 7 exports no `TypeFormatFlags`: the type is printed with its defaults (the analysis passes none). */
  typeToString(type: ts.Type, enclosing?: ts.Node): string {
    return this.#checker.typeToString(this.#raw(type), enclosing === undefined ? undefined : this.#node7(enclosing));
  }
}

/** A TypeScript 7 checker opened on a project, and how to let its process go. */
export interface OpenedTypeScript7Checker {
  readonly checker: TypeScript7Checker;
  close(): void;
}

/**
 * Starts TypeScript 7's API (one `tsgo` process) on the tsconfig.json of `program` and returns the
 * checker of that project. `sync` and `ast` are the project's `typescript/unstable/sync` and
 * `typescript/unstable/ast` (ES modules: the caller imports them).
 */
export function openTypeScript7Checker(
  tsi: typeof ts,
  program: ts.Program,
  sync: TypeScript7Module,
  ast: TypeScript7Ast,
  tsconfig: string,
): OpenedTypeScript7Checker {
  const api = new sync.API({ cwd: tsconfig.replace(/[\\/][^\\/]*$/, '') });
  const snapshot = api.updateSnapshot({ openProject: tsconfig });
  const project = snapshot.getProject(tsconfig) ?? snapshot.getProjects()[0];
  if (project === undefined) {
    api.close();
    throw new Error(`TypeScript 7 opened no project for ${tsconfig}`);
  }
  return { checker: new TypeScript7Checker(tsi, program, sync, ast, project), close: () => api.close() };
}
