// Brings dist/ and build/ up to date for test/run.mjs, compiling only what changed since the last
// run. build/.incremental/state.json records, per compiled file, a hash of everything its output
// depends on: its own text, the text of every project file it imports (transitively), the files
// that declare global or module augmentations (they change every file's types), the tsconfig
// chain, the package declarations and transformer in dist/ and package-lock.json (the compiler,
// typia). A file whose hash differs, or whose output is missing, is compiled again; so is, through
// its imports, every file that depends on it.
//
// The packages (`npm run build`'s three projects) are rebuilt incrementally (tsc --incremental, in this process) when a file of
// theirs changed. A test project holding suites compiles only the stale files among the suites a
// run asked for, what they import and its helpers (not suites); a project without suites (the app test/runtimes/ serves)
// is compiled whole, as its OpenAPI document covers the whole program.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';

/** `npm run build`'s projects, in build order: what each reads, and one file each build writes. */
const packageProjects = [
  { name: 'core', config: 'tsconfig.json', inputs: ['src', 'tsconfig.json', 'tsconfig.base.json'], output: 'dist/src/index.js' },
  {
    name: 'transformer',
    config: 'tsconfig.transformer.json',
    inputs: ['transformer', 'tsconfig.transformer.json', 'tsconfig.base.json'],
    output: 'dist/transformer/index.cjs',
  },
  {
    name: 'rate-limit',
    config: 'packages/rate-limit/tsconfig.json',
    // Its types import '@kiln/core': the core's declarations are an input too.
    inputs: ['packages/rate-limit/src', 'packages/rate-limit/tsconfig.json', 'tsconfig.base.json', 'dist/src/**.d.ts'],
    output: 'packages/rate-limit/dist/index.js',
  },
];

const hash = (...parts) => {
  const digest = createHash('sha1');
  for (const part of parts) digest.update(part).update('\0');
  return digest.digest('hex');
};

/** Every file under `path` (or `path` itself), sorted, build output and dependencies left out. */
function filesUnder(path, keep = () => true) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return keep(path) ? [path] : [];
  const found = [];
  for (const entry of readdirSync(path).sort()) {
    if (entry === 'node_modules' || entry === 'dist' || entry === 'build') continue;
    found.push(...filesUnder(join(path, entry), keep));
  }
  return found;
}

/** One hash of the files' paths (relative to root) and contents. */
function hashFiles(root, files) {
  return hash(...files.flatMap((file) => [relative(root, file), readFileSync(file)]));
}

const isDeclaration = (file) => /\.d\.[cm]?ts$/.test(file);
/** The declarations packages/*\/dist holds (@kiln/rate-limit's types, which its tests import). */
const packageDeclarations = (root) =>
  (existsSync(join(root, 'packages')) ? readdirSync(join(root, 'packages')).sort() : []).flatMap((name) =>
    filesUnder(join(root, 'packages', name, 'dist'), isDeclaration),
  );
const outputName = (file) =>
  file
    .replace(/\.ts$/, '.js')
    .replace(/\.mts$/, '.mjs')
    .replace(/\.cts$/, '.cjs');
const relativeImport = /\b(?:from|import)\s*\(?\s*['"](\.\.?\/[^'"]+)['"]/g;
const augmentation = /^\s*declare\s+(?:module\s+['"]|global\b)/m;

/**
 * The TypeScript files `file` imports by a relative path ('./x.js' is x.ts, as NodeNext writes it),
 * inside its project or not (@kiln/rate-limit's tests import test/support/server.ts).
 */
function importsOf(file, text) {
  const found = [];
  for (const [, specifier] of text.matchAll(relativeImport)) {
    const target = resolve(dirname(file), specifier);
    const candidates = [
      target.replace(/\.js$/, '.ts'),
      target.replace(/\.mjs$/, '.mts'),
      target.replace(/\.cjs$/, '.cts'),
      join(target, 'index.ts'),
    ];
    const hit = candidates.find((candidate) => /\.[cm]?ts$/.test(candidate) && existsSync(candidate));
    if (hit !== undefined) found.push(hit);
  }
  return found;
}

export class IncrementalBuild {
  #root;
  #buildRoot;
  #statePath;
  #state;
  #require;
  #ts; // plain TypeScript: reads the tsconfig files
  #patched; // ts-patch's TypeScript, which runs the plugins: loaded only when something compiles

  constructor(root, buildRoot) {
    this.#root = root;
    this.#buildRoot = buildRoot;
    this.#statePath = join(buildRoot, '.incremental', 'state.json');
    this.#state = existsSync(this.#statePath) ? JSON.parse(readFileSync(this.#statePath, 'utf8')) : { packages: {}, files: {} };
    this.#require = createRequire(join(root, 'package.json'));
  }

  get #typescript() {
    this.#ts ??= this.#require('typescript');
    return this.#ts;
  }

  #save() {
    mkdirSync(dirname(this.#statePath), { recursive: true });
    writeFileSync(this.#statePath, JSON.stringify(this.#state));
  }

  /** Rebuilds each package whose sources changed; false when one fails to compile. */
  buildPackages(log) {
    for (const project of packageProjects) {
      const inputs = hashFiles(
        this.#root,
        project.inputs.flatMap((input) =>
          input.endsWith('/**.d.ts')
            ? filesUnder(join(this.#root, input.slice(0, -'/**.d.ts'.length)), isDeclaration)
            : filesUnder(join(this.#root, input)),
        ),
      );
      const outputMissing = !existsSync(join(this.#root, project.output));
      if (this.#state.packages[project.name] === inputs && !outputMissing) continue;
      const buildInfo = join(this.#buildRoot, '.incremental', `${project.name}.tsbuildinfo`);
      // tsc --incremental does not write again what it believes it wrote: a deleted dist/ starts over.
      if (outputMissing) rmSync(buildInfo, { force: true });
      log(`building ${project.config}`);
      if (!this.#compilePackage(project.config, buildInfo)) {
        delete this.#state.packages[project.name];
        this.#save();
        return false;
      }
      this.#state.packages[project.name] = inputs;
      this.#save();
    }
    return true;
  }

  /**
   * `tsc -p config --incremental`, in this process: the packages use no compiler plugin, so plain
   * TypeScript builds them as `npm run build`'s tspc does, without a second Node starting and
   * loading (and ts-patch patching) the compiler again. Reports as tsc does; false on an error.
   */
  #compilePackage(config, buildInfo) {
    const ts = this.#typescript;
    const parsed = this.#parseConfig(join(this.#root, config));
    const options = { ...parsed.options, incremental: true, tsBuildInfoFile: buildInfo };
    const program = ts.createIncrementalProgram({
      rootNames: parsed.fileNames,
      options,
      projectReferences: parsed.projectReferences,
      configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
    });
    const diagnostics = [
      ...program.getConfigFileParsingDiagnostics(),
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
      ...program.getSyntacticDiagnostics(),
      ...program.getSemanticDiagnostics(),
    ];
    if (options.declaration) diagnostics.push(...program.getDeclarationDiagnostics());
    diagnostics.push(...program.emit().diagnostics);
    this.#report(ts, diagnostics);
    return !diagnostics.some((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error);
  }

  #parseConfig(configPath) {
    const ts = this.#typescript;
    const host = {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    };
    return ts.getParsedCommandLineOfConfigFile(configPath, {}, host);
  }

  #report(ts, diagnostics) {
    if (diagnostics.length === 0) return;
    const host = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => this.#root, getNewLine: () => '\n' };
    process.stdout.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
  }

  /** What a test project compiles, where its output goes, and which files carry a suite. */
  readProject(configPath) {
    const parsed = this.#parseConfig(configPath);
    const files = parsed.fileNames.map((file) => resolve(file));
    const rootDir = resolve(parsed.options.rootDir ?? dirname(configPath));
    // build/ mirrors the tree: a project's output goes to its folder's place in build/, or to its
    // rootDir's when that lies above (packages/rate-limit/test/ compiles test/support/server.ts too).
    const above = relative(dirname(configPath), rootDir).startsWith('..');
    const outDir = join(this.#buildRoot, relative(this.#root, above ? rootDir : dirname(configPath)));
    parsed.options.outDir = outDir;
    return {
      configPath,
      parsed,
      files,
      rootDir,
      outDir,
      outputOf: (file) => join(outDir, outputName(relative(rootDir, file))),
      suites: files.filter((file) => file.endsWith('.test.ts')),
      configFiles: [configPath, ...(parsed.options.configFile?.extendedSourceFiles ?? [])],
    };
  }

  /**
   * Compiles the files of `project` that are stale, among those `wanted` needs (every file when
   * it is undefined). Returns false when the compiler reported an error.
   */
  buildProject(project, wanted, log) {
    const texts = new Map();
    const textOf = (file) => {
      if (!texts.has(file)) texts.set(file, readFileSync(file, 'utf8'));
      return texts.get(file);
    };
    const imports = new Map();
    const importsFrom = (file) => {
      if (!imports.has(file)) imports.set(file, importsOf(file, textOf(file)));
      return imports.get(file);
    };
    const closureOf = (start) => {
      const seen = new Set(start);
      const pending = [...start];
      while (pending.length > 0) {
        for (const next of importsFrom(pending.pop())) {
          if (!seen.has(next)) {
            seen.add(next);
            pending.push(next);
          }
        }
      }
      return seen;
    };
    const augmenting = project.files.filter((file) => augmentation.test(textOf(file)));
    const stamp = hash(
      hashFiles(this.#root, project.configFiles),
      // What the plugins and the types come from: declarations and the transformer, not src's JavaScript.
      hashFiles(
        this.#root,
        filesUnder(join(this.#root, 'dist'), (file) => isDeclaration(file) || file.includes('/dist/transformer/')),
      ),
      hashFiles(this.#root, packageDeclarations(this.#root)),
      hashFiles(this.#root, [join(this.#root, 'package-lock.json')]),
      ...augmenting.flatMap((file) => [file, textOf(file)]),
    );
    const dependencyHash = (file) => {
      const closure = [...closureOf([file])].sort();
      return hash(stamp, ...closure.flatMap((dependency) => [relative(this.#root, dependency), textOf(dependency)]));
    };
    // By project and file: a helper two projects compile has a state in each.
    const key = (file) => `${relative(this.#root, project.configPath)}:${relative(this.#root, file)}`;
    const whole = project.suites.length === 0; // an app a suite serves: its OpenAPI document covers every file
    // The chosen suites and every file of the project that is not a suite: a helper may be run by
    // its path (a child process's script) rather than imported.
    const helpers = project.files.filter((file) => !project.suites.includes(file));
    const needed = [...closureOf(wanted === undefined || whole ? project.files : [...wanted, ...helpers])];
    const compilable = needed.filter((file) => !isDeclaration(file) && !relative(project.rootDir, file).startsWith('..'));
    const current = new Map(compilable.map((file) => [file, dependencyHash(file)]));
    const stale = compilable.filter((file) => this.#state.files[key(file)] !== current.get(file) || !existsSync(project.outputOf(file)));
    if (stale.length === 0) return true;
    const compiled = whole ? compilable : stale;

    this.#patched ??= this.#require('ts-patch/compiler');
    const ts = this.#patched;
    log(`compiling ${compiled.length} of ${project.files.length} files of ${relative(this.#root, project.configPath)}`);
    const program = ts.createProgram({
      // The augmentations are part of every file's types, as in a build of the whole project.
      rootNames: [...new Set([...compiled, ...augmenting])],
      options: project.parsed.options,
      projectReferences: project.parsed.projectReferences,
    });
    const diagnostics = [
      ...program.getConfigFileParsingDiagnostics(),
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
    ];
    for (const file of compiled) {
      const sourceFile = program.getSourceFile(file);
      diagnostics.push(...program.getSyntacticDiagnostics(sourceFile), ...program.getSemanticDiagnostics(sourceFile));
      diagnostics.push(...program.emit(sourceFile).diagnostics);
    }
    this.#report(ts, diagnostics);
    const failed = diagnostics.some((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error);
    // A suite that did not compile must not run as it was before the edit.
    if (failed)
      for (const file of compiled.filter((file) => project.suites.includes(file))) rmSync(project.outputOf(file), { force: true });
    for (const file of compiled) {
      if (failed) delete this.#state.files[key(file)];
      else this.#state.files[key(file)] = current.get(file);
    }
    this.#save();
    return !failed;
  }

  /**
   * The TypeScript files under `dirs` (fixtures and node_modules aside) that no project, or more
   * than one, compiles: a folder left out of a tsconfig.json's include would never run.
   */
  uncompiledFiles(dirs, projects) {
    const owners = new Map();
    for (const project of projects) for (const file of project.files) owners.set(file, (owners.get(file) ?? 0) + 1);
    const sources = dirs.flatMap((dir) => filesUnder(dir, (file) => /\.[cm]?ts$/.test(file) && !isDeclaration(file)));
    return sources
      .filter((file) => !file.split(/[\\/]/).includes('fixtures') && owners.get(file) !== 1)
      .map((file) => ({ file: relative(this.#root, file), projects: owners.get(file) ?? 0 }));
  }

  /** Deletes compiled suites whose source is gone (a deleted or moved test must not run on). */
  removeOrphanSuites(projects) {
    const expected = new Set(projects.flatMap((project) => project.suites.map((file) => project.outputOf(file))));
    const compiled = filesUnder(this.#buildRoot, (file) => file.endsWith('.test.js'));
    for (const file of compiled) {
      if (expected.has(file)) continue;
      rmSync(file, { force: true });
      rmSync(`${file}.map`, { force: true });
    }
  }
}
