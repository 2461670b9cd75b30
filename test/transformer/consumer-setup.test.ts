// The setup the docs (Getting started) give a consumer, verbatim: `@kiln/core/transformer` resolved through
// the package's exports map by ts-patch, built with tspc, served.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileFixture, root } from './support/compile-fixture.js';
import { consumerProject } from './support/consumer-project.js';

test('a consumer project builds (and rebuilds incrementally) with { "transform": "@kiln/core/transformer", "transformProgram": true } and serves typed parameters, with a decorator from another package', async () => {
  const project = consumerProject();
  try {
    project.write(
      'tsconfig.json',
      JSON.stringify(
        {
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            strict: true,
            types: ['node'],
            outDir: 'dist',
            rootDir: 'src',
            // Builder programs (incremental, watch) need versioned source files: the rewritten ones too.
            incremental: true,
            tsBuildInfoFile: 'dist/.tsbuildinfo',
            noUnusedLocals: true,
            noUncheckedIndexedAccess: true,
            plugins: [{ transform: '@kiln/core/transformer', transformProgram: true }, { name: '@kiln/core/transformer/editor' }],
          },
          include: ['src'],
        },
        null,
        2,
      ),
    );
    // A custom decorator published in another package: recognised by its declared type alone.
    project.write(
      'node_modules/acme-decorators/package.json',
      JSON.stringify({ name: 'acme-decorators', type: 'module', main: 'index.js', types: 'index.d.ts' }),
    );
    project.write(
      'node_modules/acme-decorators/index.js',
      "import { routeRequestParamDecorator } from '@kiln/core';\nexport const Host = routeRequestParamDecorator('hostname');\n",
    );
    project.write(
      'node_modules/acme-decorators/index.d.ts',
      "import type { ParameterBinding } from '@kiln/core';\nexport declare const Host: () => ParameterBinding<'request', 'hostname'>;\n",
    );
    project.write(
      'src/app.ts',
      [
        "import { Controller, Get, Param, Query, createServer } from '@kiln/core';",
        "import { Host } from 'acme-decorators';",
        '',
        "@Controller('/users')",
        'export class Users {',
        "  @Get('/:id') get(@Param('id') id: number, @Query('tags') tags: string[], @Host() host: string) { return { id, tags, host }; }",
        '}',
        'export const app = createServer({ controllers: [Users], strictValidation: true });',
        '',
      ].join('\n'),
    );
    const compiled = await compileFixture(join(project.dir, 'tsconfig.json'), join(project.dir, 'dist'));
    assert.is(compiled.exitCode, 0, compiled.output);
    project.write('src/app.ts', `${'// edited\n'}${(await import('node:fs')).readFileSync(join(project.dir, 'src', 'app.ts'), 'utf8')}`);
    const rebuilt = await compileFixture(join(project.dir, 'tsconfig.json'), join(project.dir, 'dist'));
    assert.is(rebuilt.exitCode, 0, `incremental rebuild: ${rebuilt.output}`);
    project.write(
      'src/broken.ts',
      "import { Controller, Get, Param } from '@kiln/core';\n@Controller('/b')\nexport class B { @Get('/:id') g(@Param('nope') id: string) { return id; } }\n",
    );
    const broken = await compileFixture(join(project.dir, 'tsconfig.json'), join(project.dir, 'dist'));
    assert.is.not(broken.exitCode, 0);
    assert.match(broken.output, "src/broken.ts(3,40): error TS9101: KILN101: @Param('nope') but the route GET /b/:id declares no ':nope'");
    project.write('src/broken.ts', 'export {};\n');
    const { app } = await import(pathToFileURL(join(project.dir, 'dist', 'app.js')).href);
    const ok = await app.fetch(new Request('http://localhost/users/7?tags=a&tags=b'));
    assert.equal(await ok.json(), { id: 7, tags: ['a', 'b'], host: 'localhost' });
    const bad = await app.fetch(new Request('http://localhost/users/seven'));
    assert.is(bad.status, 400);
    assert.equal(await bad.json(), { error: 'Bad Request', message: "Parameter 'id' expected number, got 'seven'" });
  } finally {
    project.remove();
  }
});

test('tspc --watch compiles the rewritten files and reports KILN errors as files change', async () => {
  const project = consumerProject();
  const watcher = spawn(join(root, 'node_modules', '.bin', 'tspc'), ['-w', '-p', '.', '--preserveWatchOutput', '--pretty', 'false'], {
    cwd: project.dir,
  });
  let output = '';
  watcher.stdout.on('data', (chunk) => (output += chunk));
  watcher.stderr.on('data', (chunk) => (output += chunk));
  // 300 s: a hang guard, not a time limit (a loaded machine takes minutes to compile).
  const waitFor = (pattern: RegExp, from: number) =>
    new Promise<void>((resolve, reject) => {
      const started = Date.now();
      const poll = setInterval(() => {
        if (pattern.test(output.slice(from))) {
          clearInterval(poll);
          resolve();
        } else if (Date.now() - started > 300_000) {
          clearInterval(poll);
          reject(new Error(`waited for ${pattern}:\n${output}`));
        }
      }, 50);
    });
  try {
    project.write(
      'tsconfig.json',
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          strict: true,
          types: ['node'],
          outDir: 'dist',
          rootDir: 'src',
          plugins: [{ transform: '@kiln/core/transformer', transformProgram: true }],
        },
        include: ['src'],
      }),
    );
    project.write(
      'src/app.ts',
      "import { Controller, Get, Param } from '@kiln/core';\n@Controller('/w')\nexport class W { @Get('/:id') g(@Param('id') id: number) { return id; } }\n",
    );
    await waitFor(/Found 0 errors\. Watching for file changes\./, 0);
    const mark = output.length;
    project.write(
      'src/app.ts',
      "import { Controller, Get, Param } from '@kiln/core';\n@Controller('/w')\nexport class W { @Get('/:id') g(@Param('nope') id: number) { return id; } }\n",
    );
    await waitFor(/Found 1 error\. Watching for file changes\./, mark);
    assert.match(
      output.slice(mark),
      "src/app.ts(3,40): error TS9101: KILN101: @Param('nope') but the route GET /w/:id declares no ':nope'",
    );
    assert.not.match(output, 'TS1206');
  } finally {
    watcher.kill();
    project.remove();
  }
});

test.run();
