// Writes a generated application under bench/build/apps/<name>/ and compiles it with the root's
// TypeScript (tsc, or tspc when the Kiln plugin is in its tsconfig).
import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const appsDir = fileURLToPath(new URL('../build/apps/', import.meta.url));
const rootBin = fileURLToPath(new URL('../../node_modules/.bin/', import.meta.url));

export async function writeApp(name, files) {
  const dir = join(appsDir, name);
  await rm(dir, { recursive: true, force: true });
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}

/**
 * Compiles `dir/tsconfig.json`; resolves with the wall-clock milliseconds the compiler took.
 * With `allowErrors`, type errors (the compiler still emits) are tolerated and counted.
 */
export async function compileApp(dir, compiler = 'tsc', { allowErrors = false } = {}) {
  const started = process.hrtime.bigint();
  let errors = 0;
  try {
    await run(join(rootBin, compiler), ['-p', join(dir, 'tsconfig.json')], { maxBuffer: 1 << 24 });
  } catch (error) {
    errors = (String(error.stdout).match(/error TS\d+/g) ?? []).length;
    if (!allowErrors || errors === 0) throw new Error(`${compiler} failed on ${dir}:\n${error.stdout}${error.stderr}`);
  }
  return { milliseconds: Number(process.hrtime.bigint() - started) / 1e6, errors };
}
