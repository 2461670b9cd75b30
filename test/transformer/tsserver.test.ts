// The editor plugin inside a real tsserver process, configured exactly as the docs (Getting started) say
// (`{ "name": "@kiln/core/transformer/editor" }` in a consumer's tsconfig.json), asked for diagnostics
// over tsserver's own protocol as an editor asks.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { root } from './support/compile-fixture.js';
import { consumerProject } from './support/consumer-project.js';

interface ServerDiagnostic {
  start: { line: number; offset: number };
  code: number;
  text: string;
}

/** Sends requests to a tsserver process and resolves with the body of the response to the last one. */
function askTsserver(cwd: string, requests: object[]): Promise<ServerDiagnostic[]> {
  const server = spawn(
    process.execPath,
    [
      join(root, 'node_modules', 'typescript', 'lib', 'tsserver.js'),
      // Editors load plugins from the workspace's node_modules ("Use Workspace Version" in VS Code); here, the project's.
      '--allowLocalPluginLoads',
      '--disableAutomaticTypingAcquisition',
    ],
    { cwd },
  );
  const last = requests.length;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      server.kill();
      reject(new Error(`tsserver did not answer:\n${buffer}`));
    }, 60_000);
    let buffer = '';
    server.stdout.on('data', (chunk) => {
      buffer += chunk;
      for (const match of buffer.matchAll(/Content-Length: \d+\r\n\r\n(.*)\n/g)) {
        const message = JSON.parse(match[1]!);
        if (message.type === 'response' && message.request_seq === last) {
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

test('tsserver loads @kiln/core/transformer/editor: TS1206 only on the foreign decorator, KILN101 reported', async () => {
  const project = consumerProject();
  try {
    project.write(
      'tsconfig.json',
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          strict: true,
          types: ['node'],
          noEmit: true,
          plugins: [{ name: '@kiln/core/transformer/editor' }],
        },
        include: ['src'],
      }),
    );
    const lines = [
      "import { Controller, Get, Param } from '@kiln/core';",
      'const Foreign = () => (_target: unknown, _context: unknown) => {};',
      "@Controller('/a')",
      'export class A {',
      "  @Get('/:id') get(@Param('id') id: number) { return id; }",
      "  @Get('/b/:id') b(@Param('name') name: string, @Param('id') @Foreign() id: string) { return name + id; }",
      '}',
      '',
    ];
    project.write('src/app.ts', lines.join('\n'));
    const at = (text: string) => `6:${lines[5]!.indexOf(text) + 1}`;
    const file = join(project.dir, 'src', 'app.ts');
    const diagnostics = await askTsserver(project.dir, [
      { command: 'open', arguments: { file } },
      { command: 'semanticDiagnosticsSync', arguments: { file } },
    ]);
    assert.equal(
      diagnostics.map((d) => `${d.start.line}:${d.start.offset} ${d.code}`),
      [`${at('@Foreign()')} 1206`, `${at("'name'")} 9101`],
    );
    assert.match(diagnostics[1]!.text, "KILN101: @Param('name') but the route GET /a/b/:id declares no ':name'");
  } finally {
    project.remove();
  }
});

test.run();
