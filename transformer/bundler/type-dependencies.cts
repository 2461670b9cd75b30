import type * as ts from 'typescript';

/**
 * The project files a file's compiled output depends on: every project source it imports,
 * directly or through others, including `import type` and re-exports (erased from the output,
 * but a body interface or an enum read by the analysis lives there). Bundlers watch these, so an
 * edit to a body interface in another file transforms the controller again and its validator
 * follows the new shape. Declaration files and packages are left out.
 */
export function dependenciesOf(tsi: typeof ts, program: ts.Program, fileName: string): string[] {
  const checker = program.getTypeChecker();
  const found = new Set<string>();
  const visit = (file: ts.SourceFile): void => {
    for (const statement of file.statements) {
      const specifier = tsi.isImportDeclaration(statement) || tsi.isExportDeclaration(statement) ? statement.moduleSpecifier : undefined;
      if (specifier === undefined || !tsi.isStringLiteral(specifier)) continue;
      const declaration = checker.getSymbolAtLocation(specifier)?.declarations?.find(tsi.isSourceFile);
      if (declaration === undefined || declaration.isDeclarationFile || program.isSourceFileFromExternalLibrary(declaration)) continue;
      if (declaration.fileName === fileName || found.has(declaration.fileName)) continue;
      found.add(declaration.fileName);
      visit(declaration);
    }
  };
  const file = program.getSourceFile(fileName);
  if (file !== undefined) visit(file);
  return [...found];
}
