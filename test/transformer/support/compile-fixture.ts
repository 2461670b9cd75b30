// Compiles a fixture project the way a consumer builds: the real `tspc` binary, a tsconfig.json
// with (or without) the @kiln/core/transformer plugin entry.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as assert from 'uvu/assert';

export const root = fileURLToPath(new URL('../../../../', import.meta.url));
export const fixturesDir = join(root, 'test', 'transformer', 'fixtures');

export interface Compiled {
  readonly exitCode: number | null;
  readonly output: string;
  readonly outDir: string;
  readonly milliseconds: number;
}

/** One reported diagnostic: `file(line,col): error TSnnnn: message`. */
export interface Reported {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly code: string;
  readonly message: string;
}

/** Runs tspc on a project directory (or tsconfig path), emitting into `outDir`. */
export function compileFixture(project: string, outDir: string): Promise<Compiled> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(join(root, 'node_modules', '.bin', 'tspc'), ['-p', project, '--outDir', outDir, '--pretty', 'false'], {
      cwd: root,
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ exitCode, output, outDir, milliseconds: Math.round(performance.now() - started) }));
  });
}

/** Parses tspc's plain (`--pretty false`) output. A Kiln error reads `error TS9101: KILN101: ...`: its code is KILN101. */
export function parseDiagnostics(output: string): Reported[] {
  const found: Reported[] = [];
  for (const line of output.split('\n')) {
    const match = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(line.trim());
    if (match === null) continue;
    const [, file, row, column, tsCode, message] = match as unknown as [string, string, string, string, string, string];
    const kiln = /^(KILN\d+): /.exec(message);
    found.push({ file: file.replace(/\\/g, '/'), line: Number(row), column: Number(column), code: kiln?.[1] ?? tsCode, message });
  }
  return found;
}

/** A diagnostic a fixture expects: a `// expect: KILNnnn` comment on the line it must be reported at (`// expect: TS2322 col 11`: and the column). */
export interface Expected {
  file: string;
  line: number;
  code: string;
  column?: number;
}

/** Every `// expect: <code> [col <n>]` marker in the `.ts` files of a fixture project, by file name and line. */
export function markers(project: string): Expected[] {
  const expected: Expected[] = [];
  for (const name of readdirSync(project)
    .filter((f) => f.endsWith('.ts'))
    .sort()) {
    readFileSync(join(project, name), 'utf8')
      .split('\n')
      .forEach((text, i) => {
        const marker = /\/\/ expect: (\w+)(?: col (\d+))?/.exec(text);
        if (marker === null) return;
        expected.push({ file: name, line: i + 1, code: marker[1]!, ...(marker[2] === undefined ? {} : { column: Number(marker[2]) }) });
      });
  }
  return expected;
}

/** A fixture project's build: tspc's result, what it reported, and what the fixture's markers expect. */
export interface FixtureBuild {
  readonly compiled: Compiled;
  readonly reported: Reported[];
  readonly expected: Expected[];
}

/**
 * `compile(name)` builds the fixture project `fixtures/<group>/<name>` into
 * `build/transformer-fixtures/<group>/<name>`, once: by the first test that asks for it.
 */
export function fixtureBuilds(group: string): (name: string) => Promise<FixtureBuild> {
  const builds = new Map<string, Promise<FixtureBuild>>();
  return (name) => {
    let build = builds.get(name);
    if (build === undefined) {
      const project = join(fixturesDir, group, name);
      build = compileFixture(project, join(root, 'build', 'transformer-fixtures', group, name)).then((compiled) => ({
        compiled,
        reported: parseDiagnostics(compiled.output).map((r) => ({ ...r, file: r.file.split('/').pop()! })),
        expected: markers(project),
      }));
      builds.set(name, build);
    }
    return build;
  };
}

/** The build failed with exactly the diagnostics the fixture's `// expect:` markers name, each at its line. */
export function assertMarkersReported({ compiled, reported, expected }: FixtureBuild): void {
  assert.is.not(compiled.exitCode, 0, 'the build fails');
  assert.ok(expected.length > 0);
  const missing = expected.filter((e) => !reported.some((r) => r.file === e.file && r.line === e.line && r.code === e.code));
  assert.equal(missing, [], `reported:\n${compiled.output}`);
  const unexpected = reported.filter((r) => !expected.some((e) => e.file === r.file && e.line === r.line && e.code === r.code));
  assert.equal(unexpected, [], compiled.output);
}
