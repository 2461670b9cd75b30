// The walk two analyses share: typed responses (return-type.cts) and WebSocket messages
// (socket-messages.cts) each decide something about every handler method of the program, kept by
// file and by the end offset of the method's name (as binders are). The walk is written once here;
// each analysis keeps only its decision.
import type * as ts from 'typescript';
import type { Toolkit } from '../toolkit.cjs';
import { ownSourceFiles } from './analyse-program.cjs';

/** What an analysis decided for the methods of one file, by the end offset of each method's name. */
export interface FileMethods<T> {
  readonly fileName: string;
  readonly methods: ReadonlyMap<number, T>;
}

/**
 * Visits every method declaration, in source order, of the program's own files that hold a
 * decorator (with `only`, of those files), and keeps what `decide` returns for it; a file where it
 * returned nothing for every method is left out.
 */
export function decideMethods<T>(
  tk: Toolkit,
  only: ReadonlySet<string> | undefined,
  decide: (method: ts.MethodDeclaration, file: ts.SourceFile) => T | undefined,
): Map<string, FileMethods<T>> {
  const files = new Map<string, FileMethods<T>>();
  for (const file of ownSourceFiles(tk)) {
    // Cheap filter: most files of a program hold no decorator at all.
    if (!file.text.includes('@') || (only !== undefined && !only.has(file.fileName))) continue;
    const methods = new Map<number, T>();
    const visit = (node: ts.Node): void => {
      if (tk.ts.isMethodDeclaration(node)) {
        const decided = decide(node, file);
        if (decided !== undefined) methods.set(node.name.getEnd(), decided);
      }
      tk.ts.forEachChild(node, visit);
    };
    visit(file);
    if (methods.size > 0) files.set(file.fileName, { fileName: file.fileName, methods });
  }
  return files;
}
