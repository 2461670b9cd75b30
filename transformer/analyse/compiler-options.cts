// Analyse stage for the project's compiler options: what in tsconfig.json makes a Kiln app build
// into something that cannot run. Reported on the option in tsconfig.json, like TypeScript's own.
// The check asks TypeScript how it would emit a decorated class under the project's options, rather
// than reading one option by name: whatever makes TypeScript write legacy decorators is refused, and
// the options to remove are found among the project's own by what they change in that emit.
import type * as ts from 'typescript';
import { diagnosticMessage } from '../diagnostics/diagnostic-codes.cjs';
import { kilnDiagnostic } from '../diagnostics/kiln-diagnostic.cjs';
import type { Toolkit } from '../toolkit.cjs';

/** A decorated method with a typed parameter: enough to tell legacy emit, and its design-type metadata, apart. */
const probeSource = 'declare const d: any;\nclass KilnProbe { @d m(p: string) {} }\n';

/** What TypeScript writes for the probe under `options` (plugins left out: they would run Kiln inside itself). */
function probeEmit(tsi: typeof ts, options: ts.CompilerOptions): string {
  const { plugins: _plugins, ...compilerOptions } = options as ts.CompilerOptions & { plugins?: unknown };
  return tsi.transpileModule(probeSource, { fileName: 'kiln-probe.ts', reportDiagnostics: false, compilerOptions }).outputText;
}

// TypeScript's helper names: `__decorate` for legacy decorators (standard ones use `__esDecorate`), `__metadata` for their design types.
const legacyEmit = (output: string) => /\b__decorate\b/.test(output);
const designMetadata = (output: string) => /\b__metadata\(/.test(output);

/** The options set to `true` whose removal makes `emitted` false, in the order the project gives them. */
function optionsBehind(tsi: typeof ts, options: ts.CompilerOptions, emitted: (output: string) => boolean): string[] {
  return Object.keys(options).filter((name) => options[name] === true && !emitted(probeEmit(tsi, { ...options, [name]: false })));
}

const checked = new WeakMap<ts.CompilerOptions, ts.Diagnostic[]>();

/**
 * Legacy decorators (TypeScript's legacy decorator option) call Kiln's standard decorators with the
 * wrong arguments: the app would crash at start-up with `Cannot convert undefined or null to object`.
 * The build says what to change instead (KILN130). Checked once per set of compiler options.
 */
export function compilerOptionDiagnostics(tk: Toolkit): ts.Diagnostic[] {
  const options = tk.program.getCompilerOptions();
  let diagnostics = checked.get(options);
  if (diagnostics === undefined) {
    diagnostics = legacyEmit(probeEmit(tk.ts, options)) ? legacyDecoratorDiagnostics(tk.ts, options) : [];
    checked.set(options, diagnostics);
  }
  return diagnostics;
}

function legacyDecoratorDiagnostics(tsi: typeof ts, options: ts.CompilerOptions): ts.Diagnostic[] {
  const [cause] = optionsBehind(tsi, options, legacyEmit);
  const name = cause ?? 'an option';
  // Options that only add to legacy decorators (their design-type metadata) go too.
  const companions = designMetadata(probeEmit(tsi, options))
    ? optionsBehind(tsi, options, designMetadata)
        .filter((companion) => companion !== cause)
        .map((companion) => ` (and "${companion}")`)
    : [];
  const configFile = options.configFile as ts.TsConfigSourceFile | undefined;
  const where = configFile === undefined ? 'compilerOptions' : `compilerOptions in ${configFile.fileName}`;
  const diagnostic = kilnDiagnostic(
    tsi,
    undefined,
    diagnosticMessage('legacyDecoratorsOption', 'optionOn', name, companions.join(''), where),
  );
  if (configFile === undefined) return [diagnostic];
  // The option may come from an `extends`ed file: then the error points at the top of the project's own tsconfig.json.
  // (JSON nodes have no parents: positions are taken with the file given.)
  const at = cause === undefined ? undefined : optionNode(tsi, configFile, cause);
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
