/**
 * The `FormData` a multipart body becomes, and the `File`s in it, with each part's declared type
 * as it was sent, on every runtime. Node's and Deno's FormData keep the File objects appended to
 * them; Bun's copies each one, and Bun's File adds `;charset=utf-8` to a `text/*` or JSON type
 * (`text/plain` became `text/plain;charset=utf-8`). There the File keeps its declared type as an
 * own property, and the FormData hands back the very Files Kiln made.
 */

type Value = NonNullable<ReturnType<FormData['get']>>;
type Entry = [name: string, value: Value];

let keepsFiles: boolean | undefined;

/** Whether this runtime's FormData and File keep an appended `text/plain` File as it is (probed once). */
function formKeepsFiles(): boolean {
  if (keepsFiles === undefined) {
    const file = new File([], 'probe', { type: 'text/plain' });
    const form = new FormData();
    form.append('probe', file);
    keepsFiles = form.get('probe') === file && file.type === 'text/plain';
  }
  return keepsFiles;
}

/** A File of an uploaded part whose `type` is the part's declared type, whatever the runtime adds. */
export function uploadedFile(parts: ConstructorParameters<typeof File>[0], name: string, type: string): File {
  const file = new File(parts, name, { type });
  if (file.type !== type) Object.defineProperty(file, 'type', { value: type, enumerable: true });
  return file;
}

/** A FormData whose reads give the values appended as they are (for a runtime whose FormData copies them). */
class KeptFormData extends FormData {
  #entries: Entry[] = [];

  constructor() {
    super();
    // Own properties, not methods: the platform's typings declare the iterators as properties.
    const entries = () => this.#entries.map(([key, value]): Entry => [key, value])[Symbol.iterator]();
    Object.assign(this, {
      entries,
      [Symbol.iterator]: entries,
      keys: () => this.#entries.map(([key]) => key)[Symbol.iterator](),
      values: () => this.#entries.map(([, value]) => value)[Symbol.iterator](),
      forEach: (callback: (value: Value, key: string, parent: FormData) => void, thisArg?: unknown) => {
        for (const [key, value] of [...this.#entries]) callback.call(thisArg, value, key, this);
      },
    });
  }

  /** The value as the platform's FormData stores it: a string, the File itself, or a File made of a Blob. */
  #add(name: string, value: string | Blob, filename: string | undefined, add: (kept: Entry) => void): void {
    if (typeof value === 'string') {
      super.append(name, value);
      add([name, value]);
      return;
    }
    if (filename === undefined) super.append(name, value);
    else super.append(name, value, filename);
    add([name, value instanceof File && filename === undefined ? (value as unknown as Value) : super.getAll(name).at(-1)!]);
  }

  override append(name: string, value: string | Blob, filename?: string): void {
    this.#add(name, value, filename, (entry) => this.#entries.push(entry));
  }

  override set(name: string, value: string | Blob, filename?: string): void {
    const at = this.#entries.findIndex(([key]) => key === name);
    super.delete(name);
    this.#add(name, value, filename, (entry) => {
      this.#entries = this.#entries.filter(([key]) => key !== name);
      this.#entries.splice(at === -1 ? this.#entries.length : at, 0, entry);
    });
  }

  override delete(name: string): void {
    super.delete(name);
    this.#entries = this.#entries.filter(([key]) => key !== name);
  }

  override get(name: string): Value | null {
    return this.#entries.find(([key]) => key === name)?.[1] ?? null;
  }

  override getAll(name: string): Value[] {
    return this.#entries.filter(([key]) => key === name).map(([, value]) => value);
  }

  override has(name: string): boolean {
    return this.#entries.some(([key]) => key === name);
  }
}

/** The FormData of a body's parts, in the order they were sent. */
export function partsForm(entries: readonly (readonly [string, string | File])[]): FormData {
  const form = formKeepsFiles() ? new FormData() : new KeptFormData();
  for (const [name, value] of entries) form.append(name, value as Value);
  return form;
}
