import { join } from 'node:path';
import ts from 'typescript';

/**
 * A TypeScript language service over a fixture project (its tsconfig.json), as an editor opens
 * it; `overrides` replace compiler options of that tsconfig.
 */
export function languageServiceFor(project: string, overrides: ts.CompilerOptions = {}): ts.LanguageService {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(project, 'tsconfig.json'), overrides, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: () => {},
  })!;
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => parsed.options,
    getScriptFileNames: () => parsed.fileNames,
    getScriptVersion: () => '1',
    getScriptSnapshot: (fileName) => (ts.sys.fileExists(fileName) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(fileName)!) : undefined),
    getCurrentDirectory: () => project,
    getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  return ts.createLanguageService(host, ts.createDocumentRegistry());
}
