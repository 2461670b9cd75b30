// How the build writes the files it generates beside the emitted JavaScript (the OpenAPI document,
// the typed client): one way for both, so that a server or a watcher reading one never sees half
// of it, and an unchanged file keeps its modification time (no rebuild loop for a watcher).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Writes a file whole then renames it (a reader never sees half of it), only when its content changes. */
export function writeWhenChanged(file: string, text: string): void {
  let current: string | undefined;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === text) return;
  mkdirSync(dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, text);
  renameSync(partial, file);
}
