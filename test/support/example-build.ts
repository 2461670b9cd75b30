// The example app (examples/) built by tspc with its own tsconfig (its `openapi` and `client`
// options), into a folder of the suite's own: the suites that test the example through its build
// (the OpenAPI document it serves, the typed client written for it) build it the same way.
import { copyFileSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { type Compiled, compileFixture, root } from '../transformer/support/compile-fixture.js';

const example = join(root, 'examples');

/** What `npm install` gives the example (`"@kiln/core": "file:.."`); examples/start.mjs makes the same link. */
function linkKiln(): void {
  const linked = join(example, 'node_modules', '@kiln', 'core');
  if (existsSync(linked)) return;
  mkdirSync(join(example, 'node_modules', '@kiln'), { recursive: true });
  try {
    symlinkSync(root, linked, 'dir');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error; // another suite made it meanwhile
  }
}

/**
 * Builds the example into `outDir`/dist, then copies the document its build wrote into `outDir`,
 * where the built app reads and serves it (src/app.ts: '../openapi.json'). Returns tspc's result.
 */
export async function buildExample(outDir: string): Promise<Compiled> {
  linkKiln();
  const built = await compileFixture(join(example, 'tsconfig.json'), join(outDir, 'dist'));
  if (built.exitCode === 0) copyFileSync(join(example, 'openapi.json'), join(outDir, 'openapi.json'));
  return built;
}
