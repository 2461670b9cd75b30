import type * as ts from 'typescript';

/**
 * TypeScript writes its standard-decorator helpers (`__esDecorate`, `__runInitializers`, ...)
 * into every file that has a decorator. In a bundle those are one copy per controller file, each
 * compiled and warmed up on its own when the bundle starts. When bundling, each file imports them
 * from one module instead (`kiln-ts-helper:N`, which the bundler plugin serves with TypeScript's
 * own text), so the bundle holds each helper once.
 */

/** The helpers shared: standard decorators' own, none of which depends on another. */
const shareable = new Set(['typescript:esDecorate', 'typescript:runInitializers', 'typescript:setFunctionName', 'typescript:propKey']);

/** The module specifiers the bundler plugin resolves: `kiln-ts-helper:<index into helperTexts>`. */
export const sharedHelperModule = /^kiln-ts-helper:(\d+)$/;

/** Each distinct helper text met, by index: a project built with two TypeScript versions gets one module per text. */
const helperTexts: string[] = [];

/** The ES module for a `kiln-ts-helper:N` specifier: the helper as TypeScript wrote it, exported. */
export function sharedHelperSource(specifier: string): string | undefined {
  const index = sharedHelperModule.exec(specifier)?.[1];
  const text = index === undefined ? undefined : helperTexts[Number(index)];
  return text === undefined ? undefined : `export ${text.trim()}\n`;
}

function specifierOf(text: string): string {
  let index = helperTexts.indexOf(text);
  if (index === -1) index = helperTexts.push(text) - 1;
  return `kiln-ts-helper:${index}`;
}

/**
 * An `after` transformer: the shareable helpers TypeScript attached to a file become imports.
 * Only for a bundle (the specifiers exist nowhere else), and not with `importHelpers` or
 * `noEmitHelpers`, where TypeScript writes no helpers into the file.
 */
export function sharingEmitHelpers(tsi: typeof ts): ts.TransformerFactory<ts.SourceFile> {
  return (context) => (file) => {
    const { factory } = context;
    const imports: ts.ImportDeclaration[] = [];
    // A copy: removeEmitHelper edits the list in place.
    for (const helper of [...(tsi.getEmitHelpers(file) ?? [])]) {
      if (helper.scoped || !shareable.has(helper.name) || helper.dependencies !== undefined) continue;
      const name = /^\s*var (__\w+) =/.exec(helper.text)?.[1];
      if (name === undefined) continue;
      tsi.removeEmitHelper(file, helper);
      const binding = factory.createNamedImports([factory.createImportSpecifier(false, undefined, factory.createIdentifier(name))]);
      imports.push(
        factory.createImportDeclaration(
          undefined,
          factory.createImportClause(false, undefined, binding),
          factory.createStringLiteral(specifierOf(helper.text)),
        ),
      );
    }
    return imports.length === 0 ? file : factory.updateSourceFile(file, [...imports, ...file.statements]);
  };
}
