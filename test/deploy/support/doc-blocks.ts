// The blocks of a docs page marked `<!-- deploy-test: <name> -->`, each the fenced block right
// after its marker, so that the deploy suite runs exactly what a reader copies.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../../../', import.meta.url));

/** Every block of `docs/guide/<page>` marked with `marker` (`deploy-test`, `consumer-test`), by name. */
export function docBlocks(page: string, marker = 'deploy-test'): ReadonlyMap<string, string> {
  const path = join(root, 'docs', 'guide', page);
  const text = readFileSync(path, 'utf8');
  const blocks = new Map<string, string>();
  for (const match of text.matchAll(new RegExp(`<!-- ${marker}: (\\S+) -->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\\n\`\`\`\\n`, 'g'))) {
    if (blocks.has(match[1]!)) throw new Error(`${path}: the block '${match[1]}' is marked twice`);
    blocks.set(match[1]!, `${match[2]}\n`);
  }
  return blocks;
}

/** One block; throws naming the marker when the page lacks it. */
export function docBlock(blocks: ReadonlyMap<string, string>, name: string): string {
  const block = blocks.get(name);
  if (block === undefined) throw new Error(`no fenced block after a '<!-- …: ${name} -->' marker`);
  return block;
}

/** A one-command shell block without its comments: the command line. */
export function commandOf(block: string): string {
  const lines = block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '');
  if (lines.length !== 1) throw new Error(`expected one command, got:\n${block}`);
  return lines[0]!;
}
