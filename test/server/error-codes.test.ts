import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, runtimeErrorCodes, KilnError } from '@kiln/core';

const root = new URL('../../../', import.meta.url);
const reference = readFileSync(new URL('docs/reference/diagnostics.md', root), 'utf8');
const ErrorCodes = suite('runtime error codes');

interface RegistryEntry {
  means: string;
  when: string;
  messages: Record<string, (...args: unknown[]) => string>;
}
// The registry itself is internal to @kiln/core: read from the build.
const { runtimeErrors } = (await import(new URL('dist/src/kiln-error.js', root).href)) as { runtimeErrors: Record<string, RegistryEntry> };

ErrorCodes('every runtime error code is documented in the diagnostics reference', () => {
  const codes = Object.keys(runtimeErrorCodes);
  assert.ok(codes.length >= 9);
  for (const code of codes) assert.ok(reference.includes(`| ${code} |`), `${code} has a row in docs/reference/diagnostics.md`);
});

ErrorCodes('the registry lists its codes in numeric order, and runtimeErrorCodes is what each means', () => {
  const codes = Object.keys(runtimeErrors);
  assert.equal(codes, [...codes].sort());
  assert.equal(runtimeErrorCodes, Object.fromEntries(codes.map((code) => [code, runtimeErrors[code]!.means])));
});

ErrorCodes('every code has at least one message template, and each template writes every argument it is given', () => {
  for (const [code, entry] of Object.entries(runtimeErrors)) {
    assert.ok(['start-up', 'per request', 'start-up or per request'].includes(entry.when), `${code}: when is ${entry.when}`);
    const templates = Object.entries(entry.messages);
    assert.ok(templates.length > 0, `${code} has no message template`);
    for (const [name, template] of templates) {
      const args = Array.from({ length: template.length }, (_, index) => `«${index}»`);
      let message: string;
      try {
        message = template(...args);
      } catch {
        // A template that takes a list (KILN020's problems).
        message = template(...args.map((arg) => [arg]));
      }
      assert.type(message, 'string');
      for (const arg of args) assert.ok(message.includes(arg), `${code}.${name} does not write its argument ${arg}: ${message}`);
    }
  }
});

ErrorCodes('the codes of a response Kiln could not send (KILN040 to KILN047) are thrown per request, not at start-up', () => {
  const perRequest = Object.keys(runtimeErrors).filter((code) => code >= 'KILN040' && code <= 'KILN047');
  assert.ok(perRequest.length >= 7);
  for (const code of perRequest) assert.is(runtimeErrors[code]!.when, 'per request', code);
});

ErrorCodes('start-up errors are KilnErrors carrying their code', () => {
  class NotAController {}
  try {
    createServer({ controllers: [NotAController] });
    assert.unreachable('createServer should have thrown');
  } catch (error) {
    assert.instance(error, KilnError);
    assert.is((error as KilnError).code, 'KILN001');
    assert.is((error as KilnError).message, 'NotAController is listed in controllers but is not decorated with @Controller(basePath)');
  }
});

ErrorCodes.run();
