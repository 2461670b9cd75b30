// Emit stage for dependency injection: one function per class that returns its dependency list.
// A function declaration (hoisted) rather than a constant, so the class decorator that receives it
// at class definition time can hold it before the classes it names are defined; the runtime calls
// it once, when the application is created.
import type { ClassInjectionModel, DependencyModel } from '../analyse/model.cjs';
import { dependenciesPrefix } from './generated-names.cjs';

function dependencyLiteral(dependency: DependencyModel): string {
  const useDefault = dependency.useDefault ? ', useDefault: true' : '';
  return `{ token: ${dependency.expression}, scope: '${dependency.scope}', site: ${JSON.stringify(dependency.site)}${useDefault} }`;
}

function listLiteral(dependencies: readonly DependencyModel[], indent: string): string {
  if (dependencies.length === 0) return '[]';
  return `[\n${dependencies.map((d) => `${indent}  ${dependencyLiteral(d)},`).join('\n')}\n${indent}]`;
}

/** The names of the dependency functions by `classKey`, and their source. */
export function emitDependencyLists(
  injections: readonly ClassInjectionModel[],
  helpers: string,
  displayName: string,
  taken: Set<string>,
): { readonly functions: readonly string[]; readonly names: ReadonlyMap<number, string> } {
  const names = new Map<number, string>();
  const functions = injections.map((model) => {
    const base = `${dependenciesPrefix}${model.className}`.replace(/[^\w$]/g, '_');
    let name = base;
    for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
    taken.add(name);
    names.set(model.classKey, name);
    const handlers = Object.entries(model.handlers).map(
      ([handler, list]) => `      ${JSON.stringify(handler)}: ${listLiteral(list, '      ')},`,
    );
    return [
      `/** dependencies of ${model.className} (${displayName}:${model.line}) */`,
      `function ${name}(): ${helpers}.DependencyPlan {`,
      '  return {',
      `    constructorParameters: ${listLiteral(model.constructorParameters, '    ')},`,
      handlers.length === 0 ? '    handlers: {},' : `    handlers: {\n${handlers.join('\n')}\n    },`,
      '  };',
      '}',
    ].join('\n');
  });
  return { functions, names };
}
