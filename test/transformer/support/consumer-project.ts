// A throwaway consumer project outside the repository: `node_modules/@kiln/core` links to this
// checkout, exactly what `npm install @kiln/core` gives, so `@kiln/core/transformer` and
// `@kiln/core/transformer/editor` resolve the way they do for users.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { root } from './compile-fixture.js';

export interface ConsumerProject {
  readonly dir: string;
  write(path: string, text: string): void;
  remove(): void;
}

export function consumerProject(): ConsumerProject {
  const dir = mkdtempSync(join(tmpdir(), 'kiln-consumer-'));
  mkdirSync(join(dir, 'node_modules', '@types'), { recursive: true });
  mkdirSync(join(dir, 'node_modules', '@kiln'), { recursive: true });
  symlinkSync(root, join(dir, 'node_modules', '@kiln/core'), 'dir');
  symlinkSync(join(root, 'node_modules', '@types', 'node'), join(dir, 'node_modules', '@types', 'node'), 'dir');
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  write('package.json', JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2));
  return { dir, write, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
