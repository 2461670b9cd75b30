// A minimal Language Server Protocol client over stdio (JSON-RPC with Content-Length framing), as
// an editor talks to a language server: enough to open files and read their diagnostics.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export interface LspDiagnostic {
  readonly range: { readonly start: { readonly line: number; readonly character: number } };
  /** 1 error, 2 warning, 3 information, 4 hint. */
  readonly severity?: number;
  readonly code?: number | string;
  readonly message: string;
}

interface Message {
  readonly id?: number | string;
  readonly method?: string;
  readonly params?: any;
  readonly result?: any;
  readonly error?: { readonly message: string };
}

export class LanguageServer {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #pending = new Map<number, { resolve(result: any): void; reject(error: Error): void }>();
  #nextId = 1;
  #buffer = Buffer.alloc(0);
  #stderr = '';

  /** Starts `command args` (e.g. `tsc --lsp --stdio`) in `cwd`. */
  constructor(command: string, args: readonly string[], cwd: string) {
    this.#child = spawn(command, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.#child.stdout.on('data', (chunk: Buffer) => this.#read(chunk));
    this.#child.stderr.on('data', (chunk: Buffer) => (this.#stderr += chunk));
    this.#child.on('exit', (code) => {
      for (const { reject } of this.#pending.values()) reject(new Error(`the language server exited (${code}):\n${this.#stderr}`));
      this.#pending.clear();
    });
  }

  /** `initialize` and `initialized` for one workspace folder. */
  async initialize(folder: string): Promise<any> {
    const uri = pathToFileURL(folder).href;
    const result = await this.request('initialize', {
      processId: process.pid,
      rootUri: uri,
      workspaceFolders: [{ uri, name: 'fixture' }],
      capabilities: { textDocument: { publishDiagnostics: {}, diagnostic: { dynamicRegistration: false } } },
    });
    this.notify('initialized', {});
    return result;
  }

  /** Opens a file as an editor does (its text sent with it). */
  open(file: string): string {
    const uri = pathToFileURL(file).href;
    this.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version: 1, text: readFileSync(file, 'utf8') } });
    return uri;
  }

  /** The diagnostics of an open file, pulled (`textDocument/diagnostic`, LSP 3.17). */
  async diagnostics(uri: string): Promise<LspDiagnostic[]> {
    const report = await this.request('textDocument/diagnostic', { textDocument: { uri } });
    return report.items as LspDiagnostic[];
  }

  request(method: string, params: unknown): Promise<any> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#send({ id, method, params });
    });
  }

  notify(method: string, params: unknown): void {
    this.#send({ method, params });
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.#child.once('exit', resolve));
    try {
      await this.request('shutdown', null);
      this.notify('exit', null);
    } catch {
      // Already gone.
    }
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }

  #send(message: Record<string, unknown>): void {
    const text = JSON.stringify({ jsonrpc: '2.0', ...message });
    this.#child.stdin.write(`Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
  }

  #read(chunk: Buffer): void {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    for (;;) {
      const headerEnd = this.#buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(this.#buffer.subarray(0, headerEnd).toString())?.[1]);
      if (this.#buffer.length < headerEnd + 4 + length) return;
      const message = JSON.parse(this.#buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString()) as Message;
      this.#buffer = this.#buffer.subarray(headerEnd + 4 + length);
      this.#receive(message);
    }
  }

  #receive(message: Message): void {
    if (message.method !== undefined && message.id !== undefined) {
      // A request from the server (registerCapability, workspace/configuration): answer as a plain editor would.
      const result = message.method === 'workspace/configuration' ? (message.params?.items ?? []).map(() => null) : null;
      this.#send({ id: message.id, result });
      return;
    }
    if (message.id === undefined) return; // notifications (logs, publishDiagnostics) are not needed here
    const pending = this.#pending.get(Number(message.id));
    if (pending === undefined) return;
    this.#pending.delete(Number(message.id));
    if (message.error !== undefined) pending.reject(new Error(`${message.error.message}\n${this.#stderr}`));
    else pending.resolve(message.result);
  }
}
