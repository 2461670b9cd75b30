// A generated client module (TypeScript) loaded for a test: transpiled as the consumer's build
// would, written beside it as .mjs and imported. Inside this repo '@kiln/core/client' resolves to
// the package itself (self-reference by its name).
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

export async function loadClient<Module>(tsFile: string): Promise<Module> {
  const output = ts.transpileModule(readFileSync(tsFile, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    fileName: tsFile,
  });
  const mjs = tsFile.replace(/\.ts$/, `.${process.pid}.mjs`);
  writeFileSync(mjs, output.outputText);
  return (await import(pathToFileURL(mjs).href)) as Module;
}
