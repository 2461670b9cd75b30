// `npm pack` (prepack): a clean dist/ built from src/. This package's types import its peer
// '@kiln/core', whose .d.ts the root package's build writes to ../../dist: built here first only
// when a fresh clone has none yet (`npm pack` in the root, run first, has built them).
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';

function tspc(project) {
  const result = spawnSync('tspc', ['-p', project], { stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

rmSync('dist', { recursive: true, force: true });
if (!existsSync('../../dist/src/index.d.ts')) tspc('../../tsconfig.json');
tspc('tsconfig.json');
