// A fixture project as a TypeScript program in the suite's own process, its decorators kept (no
// transformer has run): the suites that run the transformer's analyse and emit stages on their
// own start from it, as the transformer is handed a program.
import { join } from 'node:path';
import ts from 'typescript';

/** What the analyse stage takes: the compiler API, the program and its checker. */
export interface FixtureToolkit {
  readonly ts: typeof ts;
  readonly program: ts.Program;
  readonly checker: ts.TypeChecker;
}

/** The program of `project`'s tsconfig.json. */
export function fixtureToolkit(project: string): FixtureToolkit {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(project, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  )!;
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  return { ts, program, checker: program.getTypeChecker() };
}
