import type * as ts from 'typescript';

/**
 * Generated statements that are in a rewritten file's text but not in its statement list: the
 * binders written as plain JavaScript (binder-emitter's `uncheckedBinders`). Left out of the list,
 * the binder and the checker never see them; their text stays where it is, so every position,
 * and the comments the printer copies from the text, are unchanged.
 */
const setAside = new WeakMap<ts.SourceFile, readonly ts.Statement[]>();

/**
 * Takes the function declarations named in `names` that start at or after `generatedStart` out of
 * `file`'s statements (a freshly parsed file no program has seen yet), to be printed at emit time.
 */
export function setAsideStatements(tsi: typeof ts, file: ts.SourceFile, generatedStart: number, names: ReadonlySet<string>): void {
  if (names.size === 0) return;
  const kept: ts.Statement[] = [];
  const aside: ts.Statement[] = [];
  for (const statement of file.statements) {
    const generated = statement.pos >= generatedStart && tsi.isFunctionDeclaration(statement) && names.has(statement.name?.text ?? '');
    (generated ? aside : kept).push(statement);
  }
  if (aside.length === 0) return;
  const statements = tsi.setTextRange(tsi.factory.createNodeArray(kept), file.statements);
  (file as { statements: ts.NodeArray<ts.Statement> }).statements = statements;
  setAside.set(file, aside);
}

/**
 * The emit-time `after` transformer: appends a file's set-aside statements to its output, after
 * TypeScript's own transforms (they are plain JavaScript and only declare hoisted functions, so
 * their place in the module does not matter), and keeps them out of the source map.
 */
export function uncheckedStatementsTransformer(tsi: typeof ts): ts.TransformerFactory<ts.SourceFile> {
  return (context) => (file) => {
    const aside = setAside.get(tsi.getOriginalNode(file) as ts.SourceFile);
    if (aside === undefined) return file;
    for (const statement of aside) tsi.setEmitFlags(statement, tsi.EmitFlags.NoSourceMap | tsi.EmitFlags.NoNestedSourceMaps);
    return context.factory.updateSourceFile(file, [...file.statements, ...aside]);
  };
}
