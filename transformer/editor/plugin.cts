/**
 * `@kiln/core/transformer/editor`: the tsserver (language service) plugin for editors. Without it an
 * editor shows TS1206 "Decorators are not valid here" on every parameter decorator, because the
 * editor does not run the build's program transformer. It hides TS1206 on Kiln parameter
 * decorators only (a foreign parameter decorator keeps it) and adds the KILN diagnostics the build
 * would report.
 *
 * @example
 * ```jsonc
 * { "compilerOptions": { "plugins": [{ "name": "@kiln/core/transformer/editor" }] } }
 * ```
 */
import type * as ts from 'typescript';
import { analyseProgram, type ProgramModel } from '../analyse/analyse-program.cjs';
import { kilnCodeOf } from '../diagnostics/kiln-diagnostic.cjs';

const decoratorsNotValidHere = 1206;
// "declared but never read" and "all imports unused": an identifier used only inside a parameter
// decorator looks unused to a checker that rejects the decorator (TS1206) instead of checking it.
const unusedCodes = new Set([6133, 6192, 6196, 6198]);

interface EditorPluginConfig {
  /** KILN codes not to report (the same option as the build plugin's). */
  readonly disable?: readonly string[];
}

function init({ typescript: tsi }: { typescript: typeof ts }): ts.server.PluginModule {
  function create(info: ts.server.PluginCreateInfo): ts.LanguageService {
    const service = info.languageService;
    const disabled = new Set((info.config as EditorPluginConfig | undefined)?.disable ?? []);
    // One analysis per program: the language service makes a new program after each edit.
    const analyses = new WeakMap<ts.Program, ProgramModel>();
    const analysisOf = (program: ts.Program): ProgramModel => {
      let model = analyses.get(program);
      if (model === undefined) {
        model = analyseProgram({ ts: tsi, program, checker: program.getTypeChecker() });
        analyses.set(program, model);
      }
      return model;
    };

    const proxy = Object.create(null) as ts.LanguageService;
    for (const key of Object.keys(service) as (keyof ts.LanguageService)[]) {
      const member = service[key];
      (proxy as unknown as Record<string, unknown>)[key] = typeof member === 'function' ? member.bind(service) : member;
    }

    proxy.getSemanticDiagnostics = (fileName) => {
      const found = service.getSemanticDiagnostics(fileName);
      const program = service.getProgram();
      if (program?.getSourceFile(fileName) === undefined) return found;
      let model: ProgramModel;
      try {
        model = analysisOf(program);
      } catch (error) {
        // An editor must keep working even if the analysis meets code it does not expect.
        info.project?.projectService?.logger?.info(`@kiln/core/transformer/editor: ${(error as Error).stack ?? error}`);
        return found;
      }
      const fileModel = model.files.get(fileName);
      const ranges = fileModel?.decoratorRanges ?? [];
      const isKiln = (position: number) => ranges.some((r) => position >= r.start && position < r.end);
      const referenced = new Set(fileModel?.references ?? []);
      const kept: ts.Diagnostic[] = [];
      for (const d of found) {
        if (unusedCodes.has(d.code) && referenced.size > 0 && onlyNames(program.getSourceFile(fileName)!, d, referenced)) continue;
        if (d.code !== decoratorsNotValidHere || d.start === undefined || !isKiln(d.start)) {
          kept.push(d);
          continue;
        }
        // TS reports TS1206 once per parameter, at its first decorator: when that one is Kiln's,
        // the build still reports a foreign decorator beside it, so the editor moves the error there.
        const foreign = foreignDecoratorBeside(tsi, program.getSourceFile(fileName)!, d.start, isKiln);
        if (foreign !== undefined) kept.push({ ...d, start: foreign.getStart(), length: foreign.getWidth() });
      }
      const kiln = model.diagnostics.filter((d) => d.file?.fileName === fileName && !disabled.has(kilnCodeOf(d)));
      return [...kept, ...kiln];
    };
    return proxy;
  }
  return { create };
}

/** Whether a diagnostic's span names only identifiers that Kiln parameter decorators reference. */
function onlyNames(file: ts.SourceFile, diagnostic: ts.Diagnostic, referenced: ReadonlySet<string>): boolean {
  if (diagnostic.start === undefined || diagnostic.length === undefined) return false;
  const text = file.text.slice(diagnostic.start, diagnostic.start + diagnostic.length);
  if (referenced.has(text)) return true;
  // "All imports in import declaration are unused" spans the whole declaration: look at its names.
  const names = /^import\s*(?:type\s*)?\{([^}]*)\}/.exec(text)?.[1];
  if (names === undefined) return false;
  return names
    .split(',')
    .map(
      (n) =>
        n
          .trim()
          .split(/\s+as\s+/)
          .pop()!,
    )
    .filter(Boolean)
    .every((n) => referenced.has(n));
}

/** The first non-Kiln decorator of the parameter whose decorator starts at `start`. */
function foreignDecoratorBeside(
  tsi: typeof ts,
  file: ts.SourceFile,
  start: number,
  isKiln: (position: number) => boolean,
): ts.Decorator | undefined {
  let parameter: ts.ParameterDeclaration | undefined;
  const visit = (node: ts.Node): void => {
    if (parameter !== undefined || start < node.pos || start >= node.end) return;
    if (tsi.isParameter(node) && (tsi.getDecorators(node) ?? []).some((d) => d.getStart(file) === start)) parameter = node;
    else tsi.forEachChild(node, visit);
  };
  visit(file);
  return parameter === undefined ? undefined : tsi.getDecorators(parameter)?.find((d) => !isKiln(d.getStart(file)));
}

export = init;
