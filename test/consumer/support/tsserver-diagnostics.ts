// Asks the consumer project's own tsserver (its node_modules/typescript, as an editor set to "Use
// Workspace Version" runs it) for a file's semantic diagnostics, over tsserver's protocol.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export interface ServerDiagnostic {
  readonly start: { line: number; offset: number };
  readonly code: number;
  readonly text: string;
}

/** Opens `file` with `content` (the editor's unsaved text) and returns its semantic diagnostics. */
export function tsserverDiagnostics(projectDir: string, file: string, content: string): Promise<ServerDiagnostic[]> {
  const server = spawn(
    process.execPath,
    [join(projectDir, 'node_modules', 'typescript', 'lib', 'tsserver.js'), '--disableAutomaticTypingAcquisition'],
    { cwd: projectDir },
  );
  const requests = [
    { command: 'open', arguments: { file, fileContent: content } },
    { command: 'semanticDiagnosticsSync', arguments: { file } },
  ];
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => {
      server.kill();
      reject(new Error(`tsserver did not answer:\n${buffer}`));
    }, 120_000);
    server.stdout.on('data', (chunk) => {
      buffer += chunk;
      for (const match of buffer.matchAll(/Content-Length: \d+\r\n\r\n(.*)\n/g)) {
        const message = JSON.parse(match[1]!);
        if (message.type === 'response' && message.request_seq === requests.length) {
          clearTimeout(timer);
          server.kill();
          resolve(message.body);
        }
      }
    });
    server.on('error', reject);
    requests.forEach((request, i) => server.stdin.write(`${JSON.stringify({ seq: i + 1, type: 'request', ...request })}\n`));
  });
}
