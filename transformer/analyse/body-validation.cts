// Analyse stage for typed request bodies: whether a `@Body` parameter is validated with typia, and
// how generated code names its declared type. typia's transformer resolves `createValidateEquals<T>()`
// through the checker, so the validator is written as text in the generated tail (an original node
// of the rewritten program) with `T` a type query on the handler itself: no type text is reprinted.
import type * as ts from 'typescript';
import { type DiagnosticMessage, diagnosticMessage } from '../diagnostics/diagnostic-codes.cjs';
import type { BodyValidation } from './model.cjs';
import type { Toolkit } from '../toolkit.cjs';

/** A typed body's validation, none (`any`/`unknown`), or the KILN error that stops it. */
export type BodyValidationAnswer = { readonly validation: BodyValidation | undefined } | { readonly problems: readonly BodyProblem[] };

/** A KILN error that stops a body's validation. */
export interface BodyProblem {
  readonly node: ts.Node;
  readonly message: DiagnosticMessage;
}

/** typia's ts-patch entry, as a consumer writes it or as a resolved path. */
const typiaTransform = /(^|[\\/])typia[\\/]lib[\\/]transform(\.[cm]?js)?$/;

/** Whether `compilerOptions.plugins` lists typia's transformer (`{ "transform": "typia/lib/transform" }`). */
export function typiaConfigured(options: ts.CompilerOptions): boolean {
  const plugins: unknown = options['plugins'];
  return (
    Array.isArray(plugins) &&
    plugins.some((entry: { transform?: unknown } | null) => typeof entry?.transform === 'string' && typiaTransform.test(entry.transform))
  );
}

/**
 * The validation of one `@Body()` (`field` '') or `@Body('field')` parameter of declared type `type`.
 * `any` and `unknown` are never validated.
 */
export function bodyValidationOf(tk: Toolkit, parameter: ts.ParameterDeclaration, type: ts.Type, field: string): BodyValidationAnswer {
  const { ts: tsi } = tk;
  if (type.flags & (tsi.TypeFlags.Any | tsi.TypeFlags.Unknown)) return { validation: undefined };
  const file = parameter.getSourceFile();
  const at = parameter.type ?? parameter.name;
  const declared = `${parameter.name.getText(file)}${parameter.questionToken === undefined ? '' : '?'}: ${(parameter.type?.getText(file) ?? tk.checker.typeToString(type)).replace(/\s+/g, ' ')}`;
  const written = `@Body(${field === '' ? '' : `'${field}'`}) ${declared}`;

  if (!typiaConfigured(tk.program.getCompilerOptions())) {
    return problem(at, diagnosticMessage('typiaNotConfigured', 'body', written));
  }
  const foreign = findNonJson(tk, type);
  if (foreign.length > 0) {
    // Every place at once: fixing one and rebuilding to find the next is what users hate most.
    return {
      problems: foreign.map((found) => {
        const where = found.path === '' ? written : `'${found.path}' in ${written}`;
        return {
          node: at,
          message:
            found.what === 'a File'
              ? diagnosticMessage('notJsonInBody', 'file', where, found.advice)
              : found.what === 'a Date'
                ? diagnosticMessage('notJsonInBody', 'date', where, found.advice)
                : diagnosticMessage('notJsonInBody', 'other', found.what, where, found.advice),
        };
      }),
    };
  }
  const form = field === '' && hasUploadFile(tk, type);
  if (form && !webFileDeclared(tk)) {
    return problem(at, diagnosticMessage('uploadFileNeedsDomLib', 'nodeFile', written));
  }
  const owner = methodTypeOf(tk, parameter);
  if ('reason' in owner) {
    return problem(at, diagnosticMessage('bodyTypeNotNameable', 'notNameable', written, owner.reason));
  }
  const site = { start: at.getStart(file), end: at.getEnd() };
  const validation = {
    typeQuery: parameterTypeQuery(tk, parameter, owner.type),
    path: field === '' ? '$input' : `$input${accessPath(field)}`,
    site,
  };
  return { validation: form ? { ...validation, form: true } : validation };
}

/** `Parameters<Users['create']>[0]`: the parameter's declared type named through its method's type. */
export function parameterTypeQuery(tk: Toolkit, parameter: ts.ParameterDeclaration, methodType: string): string {
  const method = parameter.parent as ts.MethodDeclaration;
  const index = method.parameters.filter((p) => !isThisParameter(tk.ts, p)).indexOf(parameter);
  return `Parameters<${methodType}>[${index}]`;
}

function problem(node: ts.Node, message: DiagnosticMessage): BodyValidationAnswer {
  return { problems: [{ node, message }] };
}

function isThisParameter(tsi: typeof ts, parameter: ts.ParameterDeclaration): boolean {
  return tsi.isIdentifier(parameter.name) && parameter.name.text === 'this';
}

/** `.name`, or `["a-b"]` for a key that is not an identifier (typia writes paths the same way). */
function accessPath(field: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(field) ? `.${field}` : `[${JSON.stringify(field)}]`;
}

/** The method's type as a module-scope type expression (`Users['create']`), or why there is none. */
export function methodTypeOf(tk: Toolkit, parameter: ts.ParameterDeclaration): { type: string } | { reason: string } {
  return ownerTypeOf(tk, parameter.parent);
}

/** A method's type as a module-scope type expression (`Users['list']`), or why there is none. */
export function ownerTypeOf(tk: Toolkit, method: ts.Node): { type: string } | { reason: string } {
  const { ts: tsi } = tk;
  if (!tsi.isMethodDeclaration(method)) return { reason: 'it is not a method parameter' };
  const modifiers = tsi.getCombinedModifierFlags(method);
  if (modifiers & (tsi.ModifierFlags.Private | tsi.ModifierFlags.Protected)) return { reason: 'the method is private or protected' };
  let member: string;
  if (tsi.isIdentifier(method.name) || tsi.isStringLiteral(method.name) || tsi.isNumericLiteral(method.name)) {
    member = `['${method.name.text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;
  } else {
    return { reason: 'the method has a #private or computed name' };
  }
  const cls = method.parent;
  if (!tsi.isClassLike(cls)) return { reason: 'the method is not in a class' };
  let classType: string;
  if (tsi.isClassDeclaration(cls) && cls.name !== undefined && tsi.isSourceFile(cls.parent)) {
    classType = cls.typeParameters === undefined ? cls.name.text : `(typeof ${cls.name.text})['prototype']`;
  } else if (
    tsi.isClassExpression(cls) &&
    tsi.isVariableDeclaration(cls.parent) &&
    tsi.isIdentifier(cls.parent.name) &&
    tsi.isSourceFile(cls.parent.parent.parent.parent)
  ) {
    classType = `(typeof ${cls.parent.name.text})['prototype']`;
  } else {
    const name =
      cls.name?.text ?? (tsi.isVariableDeclaration(cls.parent) && tsi.isIdentifier(cls.parent.name) ? cls.parent.name.text : undefined);
    return { reason: name === undefined ? 'its class is anonymous' : `its class ${name} is declared inside a function or block` };
  }
  if (modifiers & tsi.ModifierFlags.Static) {
    classType = classType.endsWith("['prototype']") ? classType.slice(0, -"['prototype']".length) : `(typeof ${classType})`;
  }
  return { type: `${classType}${member}` };
}

/** Nesting deeper than this is not searched (recursive generic types never end). */
const deepest = 24;

/** Built-in classes a JSON body can never hold (JSON.parse makes none of them). */
const notJsonClasses = new Set(['Date', 'Map', 'Set', 'WeakMap', 'WeakSet', 'RegExp', 'Promise']);

/** One place in a type that JSON cannot carry: where ('' for the type itself), what, and what to declare instead. */
export interface NonJson {
  readonly path: string;
  readonly what: string;
  readonly advice: string;
}

const fileAdvice =
  'declare files as top-level properties of the whole body, `@Body() form: { title: string; avatar: File; photos?: File[] }`, which Kiln reads from multipart/form-data';
const dateAdvice = "declare it string & tags.Format<'date-time'> (import { tags } from 'typia') and convert it in the handler";
const jsonAdvice = 'declare the JSON form (a string, a number, an array or a plain object) and convert it in the handler';

/** Every place a type holds something JSON cannot carry (a Date, bigint, symbol, function, Map...), each once. */
export function findNonJson(tk: Toolkit, type: ts.Type): NonJson[] {
  const found: NonJson[] = [];
  collectNonJson(tk, type, '', new Set(), 0, found);
  return found;
}

function collectNonJson(tk: Toolkit, type: ts.Type, path: string, seen: Set<ts.Type>, depth: number, found: NonJson[]): void {
  const { ts: tsi, checker } = tk;
  if (seen.has(type) || depth > deepest) return;
  seen.add(type);
  const add = (what: string): void => {
    found.push({ path, what, advice: what === 'a Date' ? dateAdvice : jsonAdvice });
  };
  if (type.flags & tsi.TypeFlags.BigIntLike) return add('a bigint');
  if (type.flags & tsi.TypeFlags.ESSymbolLike) return add('a symbol');
  if (isUploadFile(tk, type)) {
    // A file is a top-level property of the whole body (`avatar: File`, `photos: File[]`): one form part each.
    if (!/^[^.[]+(\[\])?$/.test(path)) found.push({ path, what: 'a File', advice: fileAdvice });
    return;
  }
  const builtIn = builtInClassOf(tk, type);
  if (builtIn !== undefined) return add(`a ${builtIn}`);
  if (type.isUnionOrIntersection()) {
    for (const member of type.types) collectNonJson(tk, member, path, seen, depth + 1, found);
    return;
  }
  if (!(type.flags & tsi.TypeFlags.Object)) return;
  if (checker.getSignaturesOfType(type, tsi.SignatureKind.Call).length > 0) return add('a function');
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    for (const item of checker.getTypeArguments(type as ts.TypeReference)) collectNonJson(tk, item, `${path}[]`, seen, depth + 1, found);
    return;
  }
  for (const property of checker.getPropertiesOfType(type)) {
    // Methods and accessors are not data: typia does not read them from a JSON body.
    if (property.flags & (tsi.SymbolFlags.Method | tsi.SymbolFlags.Accessor)) continue;
    // typia's tags are phantom properties of the intersection (`string & tags.Format<...>`).
    if (property.name.startsWith('typia.')) continue;
    collectNonJson(tk, checker.getTypeOfSymbol(property), path === '' ? property.name : `${path}.${property.name}`, seen, depth + 1, found);
  }
  for (const info of checker.getIndexInfosOfType(type)) collectNonJson(tk, info.type, `${path}[key]`, seen, depth + 1, found);
}

/** `Date`, `Map`, ... when `type` is that class of the default library. */
function builtInClassOf(tk: Toolkit, type: ts.Type): string | undefined {
  const symbol = type.getSymbol();
  if (symbol === undefined || !notJsonClasses.has(symbol.name)) return undefined;
  return (symbol.declarations ?? []).some((d) => tk.program.isSourceFileDefaultLibrary(d.getSourceFile())) ? symbol.name : undefined;
}

/** True for the web `File` (or `Blob`) type of the default library or of @types/node: an uploaded file. */
export function isUploadFile(tk: Toolkit, type: ts.Type): boolean {
  const symbol = type.getSymbol();
  if (symbol === undefined || (symbol.name !== 'File' && symbol.name !== 'Blob')) return false;
  return (symbol.declarations ?? []).some((d) => {
    const source = d.getSourceFile();
    return tk.program.isSourceFileDefaultLibrary(source) || /[\\/]@types[\\/]node[\\/]/.test(source.fileName);
  });
}

/** Whether a whole-body type has a `File` (or `File[]`) property: such a body is read from multipart/form-data. */
export function hasUploadFile(tk: Toolkit, type: ts.Type): boolean {
  const { checker } = tk;
  const object = checker.getNonNullableType(type);
  const members = object.isUnion() ? object.types : [object];
  return members.some((member) =>
    checker.getPropertiesOfType(member).some((property) => {
      const propertyType = checker.getNonNullableType(checker.getTypeOfSymbol(property));
      const parts = propertyType.isUnion() ? propertyType.types : [propertyType];
      return parts.some(
        (part) =>
          isUploadFile(tk, part) || (checker.isArrayType(part) && isUploadFile(tk, checker.getTypeArguments(part as ts.TypeReference)[0]!)),
      );
    }),
  );
}

/** Whether the program's default library declares the web `File` (the DOM library), which typia's FormData programmers recognise. */
function webFileDeclared(tk: Toolkit): boolean {
  const symbol = tk.checker.resolveName('File', undefined, tk.ts.SymbolFlags.Type, false);
  return (symbol?.declarations ?? []).some((d) => tk.program.isSourceFileDefaultLibrary(d.getSourceFile()));
}
