// What the results were measured on, and how busy the machine was around each part.
import os from 'node:os';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

export function loadAverage() {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
}

function typescriptVersion() {
  try {
    return JSON.parse(readFileSync(new URL('../../node_modules/typescript/package.json', import.meta.url), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

/** The commit measured, marked `+changes` when the work tree differs from it. */
export function commit() {
  try {
    const root = new URL('../..', import.meta.url);
    const hash = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', 'src', 'packages', 'transformer', 'bench'], {
      cwd: root,
      encoding: 'utf8',
    }).trim();
    return dirty ? `${hash}+changes` : hash;
  } catch {
    return 'unknown';
  }
}

export function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    typescript: typescriptVersion(),
  };
}
