// Analyse stage for the project's compiler options: what in tsconfig.json makes a Kiln app build
// into something that cannot run. Reported on the option in tsconfig.json, like TypeScript's own.
// This is the one file of the framework that names TypeScript's legacy decorator option: it reads
// a consumer's tsconfig to refuse the option (KILN130), and its message must name what to remove.
import type * as ts from 'typescript';
import { kilnDiagnostic } from '../diagnostics/kiln-diagnostic.cjs';
import type { Toolkit } from '../toolkit.cjs';

/**
 * `experimentalDecorators: true` makes TypeScript emit legacy decorators, which call Kiln's
 * standard decorators with the wrong arguments: the app would crash at start-up with
 * `Cannot convert undefined or null to object`. The build says what to change instead.
 */
export function compilerOptionDiagnostics(tk: Toolkit): ts.Diagnostic[] {
  const options = tk.program.getCompilerOptions();
  if (options.experimentalDecorators !== true) return [];
  const configFile = options.configFile as ts.TsConfigSourceFile | undefined;
  const where = configFile === undefined ? 'compilerOptions' : `compilerOptions in ${configFile.fileName}`;
  const message =
    "experimentalDecorators is on: TypeScript would compile Kiln's standard (TC39) decorators as legacy decorators and the app " +
    `would crash at start-up. Remove "experimentalDecorators" (and "emitDecoratorMetadata") from ${where}: Kiln needs neither`;
  const diagnostic = kilnDiagnostic(tk.ts, 'legacyDecoratorsOption', undefined, message);
  if (configFile === undefined) return [diagnostic];
  // The option may come from an `extends`ed file: then the error points at the top of the project's own tsconfig.json.
  // (JSON nodes have no parents: positions are taken with the file given.)
  const at = optionNode(tk.ts, configFile, 'experimentalDecorators');
  const start = at === undefined ? 0 : at.getStart(configFile);
  return [{ ...diagnostic, file: configFile, start, length: at === undefined ? 0 : at.getEnd() - start }];
}

/** The `"name": value` property of `compilerOptions` in a tsconfig.json, when written there. */
function optionNode(tsi: typeof ts, configFile: ts.TsConfigSourceFile, name: string): ts.Node | undefined {
  const root = configFile.statements[0]?.expression;
  if (root === undefined || !tsi.isObjectLiteralExpression(root)) return undefined;
  const propertyNamed = (object: ts.ObjectLiteralExpression, key: string) =>
    object.properties.find(
      (p): p is ts.PropertyAssignment => tsi.isPropertyAssignment(p) && tsi.isStringLiteral(p.name) && p.name.text === key,
    );
  const compilerOptions = propertyNamed(root, 'compilerOptions')?.initializer;
  if (compilerOptions === undefined || !tsi.isObjectLiteralExpression(compilerOptions)) return undefined;
  return propertyNamed(compilerOptions, name);
}
