// env<T>() calls: each property of T is an environment variable, converted as a route parameter
// of its type would be. What has no encoding in one variable's text (an object, an array of
// arrays) is a build error, so a configuration mistake never waits for start-up to show.
import type * as ts from 'typescript';
import { kilnDiagnostic } from '../diagnostics/kiln-diagnostic.cjs';
import { diagnosticMessage } from '../diagnostics/diagnostic-codes.cjs';
import { kilnExportName } from '../find/kiln-import.cjs';
import type { Toolkit } from '../toolkit.cjs';
import { ownSourceFiles } from './analyse-program.cjs';
import { typiaConfigured } from './body-validation.cjs';
import type { ItemConversion } from './model.cjs';
import { conversionOfType } from './type-conversion.cjs';

/** A variable's conversion, as the runtime's `EnvConversion`. */
export type EnvConversionModel =
  | { readonly kind: 'text' | 'number' | 'boolean' | 'date' }
  | { readonly kind: 'enum'; readonly values: readonly (string | number)[] }
  | { readonly kind: 'array'; readonly item: EnvConversionModel };

export interface EnvCallModel {
  /** The call's end offset: where the emit phase finds it. */
  readonly callEnd: number;
  /** The configuration type as written (`AppConfig`), named by the generated validator. */
  readonly typeText: string;
  readonly variables: readonly { readonly name: string; readonly conversion: EnvConversionModel; readonly optional: boolean }[];
  /** Whether a property has typia tags: then typia's validator of T checks them after conversion. */
  readonly validated: boolean;
}

export interface EnvModel {
  readonly files: ReadonlyMap<string, readonly EnvCallModel[]>;
  readonly diagnostics: readonly ts.Diagnostic[];
}

function itemOf(item: ItemConversion): EnvConversionModel | undefined {
  switch (item.kind) {
    case 'text':
    case 'number':
    case 'boolean':
    case 'date':
      return { kind: item.kind };
    case 'enum':
      return { kind: 'enum', values: item.values };
    case 'json':
      return undefined;
  }
}

/** Every `env<T>()` call of `@kiln/core` in the program's own files, analysed. */
export function analyseEnvCalls(tk: Toolkit, only?: ReadonlySet<string>): EnvModel {
  const files = new Map<string, EnvCallModel[]>();
  const diagnostics: ts.Diagnostic[] = [];
  const tsi = tk.ts;
  const typia = typiaConfigured(tk.program.getCompilerOptions());
  for (const file of ownSourceFiles(tk)) {
    if (only !== undefined && !only.has(file.fileName)) continue;
    // Cheap text test first: most files never mention env( or import @kiln/core.
    if (!file.text.includes('env') || !file.text.includes('@kiln/core')) continue;
    const calls: EnvCallModel[] = [];
    const visit = (node: ts.Node): void => {
      if (tsi.isCallExpression(node) && kilnExportName(tk, node.expression) === 'env') {
        const call = analyseCall(tk, node, typia, diagnostics);
        if (call !== undefined) calls.push(call);
      }
      tsi.forEachChild(node, visit);
    };
    visit(file);
    if (calls.length > 0) files.set(file.fileName, calls);
  }
  return { files, diagnostics };
}

function analyseCall(tk: Toolkit, call: ts.CallExpression, typia: boolean, diagnostics: ts.Diagnostic[]): EnvCallModel | undefined {
  const tsi = tk.ts;
  const typeNode = call.typeArguments?.[0];
  if (typeNode === undefined || call.typeArguments!.length !== 1) {
    diagnostics.push(kilnDiagnostic(tsi, call, diagnosticMessage('envTypeNotReadable', 'noTypeArgument')));
    return undefined;
  }
  const typeText = typeNode.getText();
  const type = tk.checker.getTypeFromTypeNode(typeNode);
  const properties = type.flags & tsi.TypeFlags.Object ? tk.checker.getPropertiesOfType(type) : [];
  if (properties.length === 0) {
    diagnostics.push(kilnDiagnostic(tsi, typeNode, diagnosticMessage('envTypeNotReadable', 'notAnObject', typeText)));
    return undefined;
  }
  const variables: EnvCallModel['variables'][number][] = [];
  let validated = false;
  let refused = false;
  for (const property of properties) {
    const name = property.getName();
    const declaration = property.valueDeclaration;
    const declaredType = declaration !== undefined && tsi.isPropertySignature(declaration) ? declaration.type : undefined;
    const propertyType = tk.checker.getTypeOfSymbol(property);
    const where = declaration ?? typeNode;
    const answer = conversionOfType(tk, propertyType, declaredType);
    const printed = tk.checker.typeToString(propertyType);
    if (!answer.ok) {
      diagnostics.push(kilnDiagnostic(tsi, where, diagnosticMessage('envTypeNotReadable', 'unconvertible', typeText, name, answer.reason)));
      refused = true;
      continue;
    }
    const conversion = answer.conversion;
    let model: EnvConversionModel | undefined;
    if (conversion.kind === 'raw') model = { kind: 'text' };
    else if (conversion.kind === 'array') {
      const item = itemOf(conversion.item);
      model = item === undefined ? undefined : { kind: 'array', item };
    } else model = itemOf(conversion);
    if (model === undefined) {
      diagnostics.push(kilnDiagnostic(tsi, where, diagnosticMessage('envTypeNotReadable', 'objectProperty', typeText, name, printed)));
      refused = true;
      continue;
    }
    if (answer.check !== undefined) validated = true;
    const optional = (property.flags & tsi.SymbolFlags.Optional) !== 0 || answer.admitsUndefined;
    variables.push({ name, conversion: model, optional });
  }
  if (refused) return undefined;
  if (validated && !typia) {
    diagnostics.push(kilnDiagnostic(tsi, typeNode, diagnosticMessage('envTypiaNotConfigured', 'tagsWithoutTypia', typeText)));
    return undefined;
  }
  return { callEnd: call.getEnd(), typeText, variables, validated };
}
