/**
 * `kiln/transformer/editor`: the tsserver (language service) plugin for editors. Without it an
 * editor shows TS1206 "Decorators are not valid here" on every parameter decorator, because the
 * editor does not run the build's program transformer. It hides TS1206 on Kiln parameter
 * decorators only (a foreign parameter decorator keeps it) and adds the KILN diagnostics the build
 * would report.
 *
 * @example
 * ```jsonc
 * { "compilerOptions": { "plugins": [{ "name": "kiln/transformer/editor" }] } }
 * ```
 */
import type * as ts from 'typescript';
import { analyseProgram, type ProgramModel } from './analyse-program.cjs';
import { kilnCodeOf } from './kiln-diagnostic.cjs';

const decoratorsNotValidHere = 1206;

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
        info.project?.projectService?.logger?.info(`kiln/transformer/editor: ${(error as Error).stack ?? error}`);
        return found;
      }
      const ranges = model.files.get(fileName)?.decoratorRanges ?? [];
      const kept = found.filter((d) => !(d.code === decoratorsNotValidHere && d.start !== undefined && ranges.some((r) => d.start! >= r.start && d.start! < r.end)));
      const kiln = model.diagnostics.filter((d) => d.file?.fileName === fileName && !disabled.has(kilnCodeOf(d)));
      return [...kept, ...kiln];
    };
    return proxy;
  }
  return { create };
}

export = init;
