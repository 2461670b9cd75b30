// A page's marked blocks (the Getting started page's consumer setup, the README's example), block
// by block: each fenced block that follows a `<!-- consumer-test: <name> -->` line, so the test runs
// exactly what a reader copies.
import { readFileSync } from 'node:fs';

/** Every marked block of a Markdown file, by name. Throws when a name is used twice. */
export function readmeBlocks(readmePath: string): ReadonlyMap<string, string> {
  const text = readFileSync(readmePath, 'utf8');
  const blocks = new Map<string, string>();
  for (const match of text.matchAll(/<!-- consumer-test: (\S+) -->\n```[a-z]*\n([\s\S]*?)\n```\n/g)) {
    if (blocks.has(match[1]!)) throw new Error(`${readmePath}: the block '${match[1]}' is marked twice`);
    blocks.set(match[1]!, `${match[2]}\n`);
  }
  return blocks;
}

/** One marked block; throws naming the marker when the file lacks it. */
export function readmeBlock(blocks: ReadonlyMap<string, string>, name: string): string {
  const block = blocks.get(name);
  if (block === undefined) throw new Error(`no fenced block after '<!-- consumer-test: ${name} -->'`);
  return block;
}
