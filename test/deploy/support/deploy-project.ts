// A project written from the deployment page's blocks, outside the repository, whose node_modules
// holds what `npm install` gives a consumer: @kiln/core linked to this
// checkout (@kiln/rate-limit's package.json and dist/ copied), the others linked to its node_modules.
import { cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { root } from './doc-blocks.js';

const installed = ['typia', 'ioredis', 'pino', '@fastify/busboy', 'swagger-ui-dist', 'esbuild', 'typescript', 'ts-patch', '@types/node'];

/** A new project folder with `files` written in it (path → content) and the packages installed. */
export function deployProject(name: string, files: Readonly<Record<string, string>>): string {
  const dir = mkdtempSync(join(tmpdir(), `kiln-deploy-${name}-`));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `deploy-${name}`, private: true, type: 'module' }));
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '@kiln'), { recursive: true });
  symlinkSync(root, join(modules, '@kiln', 'core'), 'dir');
  // Copied, not linked: from its real path, @kiln/rate-limit's own import of @kiln/core would find no package.
  for (const part of ['package.json', 'dist'])
    cpSync(join(root, 'packages', 'rate-limit', part), join(modules, '@kiln', 'rate-limit', part), { recursive: true });
  for (const pkg of installed) {
    mkdirSync(dirname(join(modules, pkg)), { recursive: true });
    symlinkSync(join(root, 'node_modules', pkg), join(modules, pkg), 'dir');
  }
  return dir;
}
