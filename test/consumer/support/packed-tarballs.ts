// Step 1 of the Getting started page: both packages packed in a copy of this working tree (what a
// fresh clone holds: no dist/). The tarballs do not depend on the Node that packs them, so a full
// `npm test` packs once (test/run.mjs, before the consumer suites start) and every consumer suite,
// on every Node, installs those: `KILN_CONSUMER_TARBALLS` names their folder. A suite run on its
// own packs for itself.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { linkTree } from './link-tree.js';
import { readmeBlock, readmeBlocks } from './readme-blocks.js';
import { runScript, type CommandResult } from './run-command.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

/** The tarballs step 1 writes into the clone, by package. */
export const tarballNames = { core: 'kiln-core-0.1.0.tgz', rateLimit: 'kiln-rate-limit-0.1.0.tgz' } as const;

/** A shell block of the page without the lines the test does itself; throws when one is missing. */
export function withoutLines(block: string, lines: readonly string[]): string {
  const kept = block.split('\n');
  for (const line of lines) {
    const at = kept.findIndex((text) => text.replace(/\s+#.*$/, '').trim() === line);
    if (at < 0) throw new Error(`the page's block lacks the line '${line}':\n${block}`);
    kept.splice(at, 1);
  }
  return kept.join('\n');
}

/**
 * Copies this working tree (tracked and new files, nothing built) to `workDir/kiln` and runs the
 * page's pack block in `workDir`, which writes the tarballs into `workDir/kiln`.
 */
export async function packWorkingTree(workDir: string): Promise<CommandResult> {
  const clone = join(workDir, 'kiln');
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    if (!existsSync(join(root, file))) continue; // deleted in the working tree, not yet committed
    mkdirSync(dirname(join(clone, file)), { recursive: true });
    cpSync(join(root, file), join(clone, file));
  }
  if (existsSync(join(clone, 'dist'))) throw new Error('the copy of the working tree holds dist/');
  // `npm ci` installs this checkout's lockfile, which gave this checkout its node_modules: the
  // copy links those files instead of spending some 15 s of CPU on installing them again (.ci/run
  // runs npm ci from scratch). A link, not a symlink: real paths stay inside the clone.
  linkTree(join(root, 'node_modules'), join(clone, 'node_modules'));
  const blocks = readmeBlocks(join(root, 'docs', 'guide', 'getting-started.md'));
  return runScript(withoutLines(readmeBlock(blocks, 'pack'), ['npm ci']), workDir);
}

/**
 * Puts the tarballs of step 1 in `workDir/kiln`, where the page's install commands find them:
 * copied from `KILN_CONSUMER_TARBALLS` when the runner packed them, packed here otherwise.
 */
export async function packedTarballs(workDir: string): Promise<CommandResult> {
  const packed = process.env.KILN_CONSUMER_TARBALLS;
  if (packed === undefined || packed === '') return packWorkingTree(workDir);
  mkdirSync(join(workDir, 'kiln'), { recursive: true });
  for (const name of Object.values(tarballNames)) copyFileSync(join(packed, 'kiln', name), join(workDir, 'kiln', name));
  return { exitCode: 0, output: `the tarballs packed by test/run.mjs in ${packed}` };
}

/** The copy of the working tree that step 1 packed in (dist/ built): the runner's, or `workDir/kiln`. */
export function packedClone(workDir: string): string {
  const packed = process.env.KILN_CONSUMER_TARBALLS;
  return join(packed === undefined || packed === '' ? workDir : packed, 'kiln');
}
