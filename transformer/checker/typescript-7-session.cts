import type * as ts from 'typescript';
import {
  TypeScript7Checker,
  type Api7,
  type Project7,
  type Snapshot7,
  type TypeScript7Ast,
  type TypeScript7Module,
} from './typescript-7-checker.cjs';
import { requireTypeScript7Module } from './typescript-7-modules.cjs';

/**
 * TypeScript 7's checker for the bundler path (`@kiln/core/esbuild`, `/vite`, `/register`) of a
 * TypeScript 7 project: one `tsgo` API process for the build's lifetime, the project opened once,
 * and after an edit a new snapshot that names only the files whose text changed (TypeScript 7
 * re-checks incrementally). Files are read through `readText`, the text the bundler handed over,
 * so the checker sees exactly what TypeScript 6's program (whose trees the analysis walks) sees.
 */
export class TypeScript7Session {
  readonly #sync: TypeScript7Module;
  readonly #ast: TypeScript7Ast;
  readonly #tsconfig: string;
  readonly #api: Api7;
  /** Each own file's text as the current snapshot read it. */
  readonly #seen = new Map<string, string | undefined>();
  #snapshot: Snapshot7 | undefined;
  #checker: { readonly program: ts.Program; readonly checker: TypeScript7Checker } | undefined;

  constructor(
    projectRequire: NodeRequire,
    tsconfig: string,
    readonly readText: (fileName: string) => string | undefined,
  ) {
    try {
      // ES modules: loaded with require(esm) (Node 20.19 and 22.12 on), or imported ahead by the register hook.
      this.#sync = requireTypeScript7Module(projectRequire, 'typescript/unstable/sync') as TypeScript7Module;
      this.#ast = requireTypeScript7Module(projectRequire, 'typescript/unstable/ast') as TypeScript7Ast;
    } catch (error) {
      throw new Error(
        `@kiln/core: the checker 'typescript-7' needs the project's typescript to be TypeScript 7 (typescript/unstable/sync) and Node 20.19 or later: ${(error as Error).message}`,
      );
    }
    this.#tsconfig = tsconfig;
    const ownFile = (fileName: string) => !/[\\/]node_modules[\\/]/.test(fileName) && /\.[cm]?tsx?$/.test(fileName);
    this.#api = new this.#sync.API({
      cwd: tsconfig.replace(/[\\/][^\\/]*$/, ''),
      fs: {
        readFile: (fileName) => {
          if (!ownFile(fileName)) return undefined;
          const text = readText(fileName);
          this.#seen.set(fileName, text);
          return text ?? null;
        },
      },
    });
  }

  /** The checker for this version of the project (`program`: TypeScript 6's, built from the same texts). */
  checkerFor(tsi: typeof ts, program: ts.Program): TypeScript7Checker {
    if (this.#checker?.program === program) return this.#checker.checker;
    if (this.#snapshot === undefined) {
      this.#snapshot = this.#api.updateSnapshot({ openProject: this.#tsconfig });
    } else {
      const changed = [...this.#seen].filter(([fileName, text]) => this.readText(fileName) !== text).map(([fileName]) => fileName);
      if (changed.length > 0) {
        const previous = this.#snapshot;
        this.#snapshot = this.#api.updateSnapshot({ fileChanges: { changed } });
        previous.dispose();
      }
    }
    const project: Project7 | undefined = this.#snapshot.getProject(this.#tsconfig) ?? this.#snapshot.getProjects()[0];
    if (project === undefined) throw new Error(`@kiln/core: TypeScript 7 opened no project for ${this.#tsconfig}`);
    const checker = new TypeScript7Checker(tsi, program, this.#sync, this.#ast, project);
    this.#checker = { program, checker };
    return checker;
  }

  close(): void {
    this.#api.close();
  }
}
