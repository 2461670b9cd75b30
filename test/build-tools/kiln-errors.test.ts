// A KILN error is reported at its file, line and column by every tool that builds a Kiln app, and
// the build (or the module) is refused. fixtures/broken-app declares @Param('name') on a route
// without ':name' (KILN101) at src/broken-controller.ts line 5, column 27.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, formatMessages, type BuildFailure } from 'esbuild';
import kiln from '@kiln/core/esbuild';
import { fixtureProject, run, tspc, vitest, type FixtureProject } from './support/fixture-project.js';

const message = "KILN101: @Param('name') but the route GET /broken/:id declares no ':name'";
const line = 5;
const column = 27; // 1-based, as tspc and node print it; esbuild counts from 0
const source = "  @Get('/:id') get(@Param('name') name: string) {";

let broken: FixtureProject;
let legacy: FixtureProject;

test.before(() => {
  broken = fixtureProject('broken-app');
  // The working app with legacy decorators turned on, as a NestJS project has them.
  legacy = fixtureProject('app');
  const tsconfig = join(legacy.dir, 'tsconfig.json');
  writeFileSync(
    tsconfig,
    readFileSync(tsconfig, 'utf8').replace(
      '"strict": true,',
      '"strict": true,\n    "experimentalDecorators": true,\n    "emitDecoratorMetadata": true,',
    ),
  );
});

test.after(() => {
  broken.remove();
  legacy.remove();
});

async function esbuildErrors(dir: string, entry: string) {
  try {
    await build({
      entryPoints: [join(dir, entry)],
      bundle: true,
      platform: 'node',
      format: 'esm',
      write: false,
      plugins: [kiln({ tsconfig: join(dir, 'tsconfig.json') })],
      logLevel: 'silent',
    });
  } catch (error) {
    return (error as BuildFailure).errors;
  }
  throw new Error('esbuild built it');
}

test('tspc reports KILN101 at its line and column and fails', async () => {
  const built = await run(tspc, ['-p', broken.dir, '--pretty', 'false', '--noEmit'], broken.dir);
  assert.is(built.code, 2);
  assert.match(built.output, `src/broken-controller.ts(${line},${column}): error TS9101: ${message}`);
});

test('esbuild: the plugin reports KILN101 as a build error at its place', async () => {
  const errors = await esbuildErrors(broken.dir, 'src/main.ts');
  assert.is(errors.length, 1);
  assert.is(errors[0]!.text, message);
  assert.is(errors[0]!.pluginName, 'kiln');
  assert.equal(
    [errors[0]!.location?.file.endsWith('src/broken-controller.ts'), errors[0]!.location?.line, errors[0]!.location?.column],
    [true, line, column - 1],
  );
  // The source line esbuild prints under the error (it printed a blank line when the plugin gave none).
  assert.is(errors[0]!.location?.lineText, source);
  const [printed] = await formatMessages(errors, { kind: 'error', color: false });
  assert.match(printed!, `${line} │ ${source}\n`);
  assert.match(printed!, `╵ ${' '.repeat(column - 1)}^\n`);
});

test('vite (through vitest): the module is refused and the error points at its line and column', async () => {
  const ran = await run(vitest, ['run', '--root', broken.dir], broken.dir);
  assert.is.not(ran.code, 0);
  assert.match(ran.output, `Error: ${message}`);
  assert.match(ran.output, 'Tests  no tests');
  // Vite's code frame: the source line, then a caret under the error's column.
  const frame = ran.output.split('\n');
  const at = frame.findIndex((text) => text.startsWith(`${line}  |`));
  assert.ok(at > 0, ran.output);
  const offset = frame[at]!.indexOf(source);
  assert.is(frame[at + 1]!.indexOf('^') - offset, column - 1, ran.output);
});

test('node --import @kiln/core/register refuses the module and prints the error at its place', async () => {
  const ran = await run(process.execPath, ['--import', '@kiln/core/register', 'src/main.ts'], broken.dir);
  assert.is(ran.code, 1);
  assert.match(ran.output, `@kiln/core/register refused ${join(broken.dir, 'src', 'broken-controller.ts')}:`);
  assert.match(ran.output, `${join(broken.dir, 'src', 'broken-controller.ts')}:${line}:${column} - error ${message}`);
});

test('experimentalDecorators in tsconfig.json: tspc and the esbuild plugin report KILN130 on the option', async () => {
  const optionLine =
    readFileSync(join(legacy.dir, 'tsconfig.json'), 'utf8')
      .split('\n')
      .findIndex((text) => text.includes('"experimentalDecorators"')) + 1;
  const built = await run(tspc, ['-p', legacy.dir, '--pretty', 'false', '--noEmit'], legacy.dir);
  assert.is(built.code, 2);
  assert.match(built.output, `tsconfig.json(${optionLine},5): error TS9130: KILN130: experimentalDecorators is on`);
  assert.match(built.output, 'Remove "experimentalDecorators" (and "emitDecoratorMetadata") from compilerOptions');

  const errors = await esbuildErrors(legacy.dir, 'src/main.ts');
  assert.ok(errors.length >= 1);
  // The error is about tsconfig.json, not the module esbuild was loading: its place is in the text.
  const expected = `${join(legacy.dir, 'tsconfig.json')}:${optionLine}:5: KILN130: experimentalDecorators is on`;
  assert.ok(
    errors.every((e) => e.text.startsWith(expected)),
    errors.map((e) => e.text).join('\n'),
  );
});

test.run();
