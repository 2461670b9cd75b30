import { readFileSync, statSync } from 'node:fs';

interface FileState {
  version: number;
  text: string | undefined;
  mtimeMs: number;
}

/**
 * The project's files as the language service sees them: a version per file that changes only
 * when its text does. A bundler hands over the text it loaded; every other file is read from
 * disk and re-read when its modification time moves (a body interface edited in another file),
 * so the next program sees it without the bundler knowing it exists. Files under node_modules
 * are read once.
 */
export class ProjectFiles {
  readonly #files = new Map<string, FileState>();

  /** The version the language service compares (`'0'` for a file that does not exist). */
  version(fileName: string): string {
    return String(this.#current(fileName).version);
  }

  text(fileName: string): string | undefined {
    return this.#current(fileName).text;
  }

  /** The text a bundler loaded for a file: a new version when it differs from what was known. */
  provide(fileName: string, text: string): void {
    const state = this.#current(fileName);
    if (state.text === text) return;
    state.text = text;
    state.version++;
    state.mtimeMs = mtimeOf(fileName);
  }

  #current(fileName: string): FileState {
    let state = this.#files.get(fileName);
    if (state !== undefined && fileName.includes('/node_modules/')) return state;
    const mtimeMs = mtimeOf(fileName);
    if (state === undefined) {
      state = { version: 1, text: readText(fileName), mtimeMs };
      this.#files.set(fileName, state);
    } else if (state.mtimeMs !== mtimeMs) {
      state.mtimeMs = mtimeMs;
      const text = readText(fileName);
      if (text !== state.text) {
        state.text = text;
        state.version++;
      }
    }
    return state;
  }
}

function mtimeOf(fileName: string): number {
  try {
    return statSync(fileName).mtimeMs;
  } catch {
    return -1;
  }
}

function readText(fileName: string): string | undefined {
  try {
    return readFileSync(fileName, 'utf8');
  } catch {
    return undefined;
  }
}
