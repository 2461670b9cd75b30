// What the OpenAPI document cannot describe is a build error at its line (KILN140–KILN144), and a
// bad option or an unwritable output is a project error (KILN142, KILN145): fixtures under
// test/openapi/fixtures/diagnostics compiled with tspc.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileFixture, parseDiagnostics, root } from '../transformer/support/compile-fixture.js';

const Diagnostics = suite('OpenAPI build errors');
const fixtures = join(root, 'test', 'openapi', 'fixtures', 'diagnostics');
const outDir = join(root, 'build', 'openapi-diagnostics');

/** Every `// expect: KILNnnn` marker of the fixtures, as `file:line KILNnnn`. */
function expectedMarkers(): string[] {
  return readdirSync(fixtures)
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .flatMap((file) =>
      readFileSync(join(fixtures, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => [...line.matchAll(/expect: (KILN\d+)/g)].map((m) => `${file}:${index + 1} ${m[1]}`)),
    )
    .sort();
}

Diagnostics('each route the document cannot describe is reported at its line, and nothing else', async () => {
  const built = await compileFixture(fixtures, join(outDir, 'dist'));
  assert.is(built.exitCode, 2, built.output);
  const reported = parseDiagnostics(built.output)
    .map((d) => `${d.file.split('/').pop()}:${d.line} ${d.code}`)
    .sort();
  assert.equal(reported, expectedMarkers());
  const messages = parseDiagnostics(built.output).map((d) => d.message);
  assert.ok(
    messages.includes(
      "KILN140: Answers.big returns 'bigint', which JSON cannot describe: a bigint, which JSON.stringify throws on. Return JSON data, or a Response (described as any content; a @produces <media-type> JSDoc tag names its type)",
    ),
  );
  assert.ok(
    messages.includes(
      "KILN141: operationId 'Users.list' of GET /b/users is already used by GET /a/users (kiln141-duplicate-operation-id-a.ts); rename one class or method, or give one an @operationId tag in its JSDoc",
    ),
  );
  assert.ok(
    messages.includes(
      "KILN143: parameter 'f' of Filters.find cannot be described in JSON schema: Arraynumberundefined: JSON schema does not support undefined type in array",
    ),
  );
});

Diagnostics('what can be described is still written: never[] answers, Date fields, @operationId', async () => {
  const document = JSON.parse(readFileSync(join(outDir, 'openapi.json'), 'utf8'));
  assert.equal(document.paths['/a/users'].get.responses['200'].content['application/json'].schema, { type: 'array', maxItems: 0 });
  assert.is(document.paths['/b/users/again'].get.operationId, 'listUsersAgain');
  assert.equal(document.paths['/answers/fine'].get.responses['200'].content['application/json'].schema.properties.at, {
    type: 'string',
    format: 'date-time',
  });
});

Diagnostics('KILN142: an openapi option without an output', async () => {
  const built = await compileFixture(join(fixtures, 'tsconfig.invalid-option.json'), join(outDir, 'invalid-option'));
  assert.is(built.exitCode, 2, built.output);
  assert.match(
    built.output,
    /error TS9142: KILN142: the openapi option needs an output file, e\.g\. "openapi": \{ "output": "openapi\.json"/,
  );
});

Diagnostics('KILN145: an output that cannot be written', async () => {
  const built = await compileFixture(join(fixtures, 'tsconfig.unwritable.json'), join(outDir, 'unwritable'));
  assert.is(built.exitCode, 2, built.output);
  assert.match(built.output, /error TS9145: KILN145: writing .*tsconfig\.json[\\/]openapi\.json failed: /);
});

Diagnostics.run();
