import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, runtimeErrorCodes, KilnError } from '@kiln/core';

const reference = readFileSync(new URL('../../../docs/reference/diagnostics.md', import.meta.url), 'utf8');
const ErrorCodes = suite('runtime error codes');

ErrorCodes('every runtime error code is documented in the diagnostics reference', () => {
  const codes = Object.keys(runtimeErrorCodes);
  assert.ok(codes.length >= 9);
  for (const code of codes) assert.ok(reference.includes(`| ${code} |`), `${code} has a row in docs/reference/diagnostics.md`);
});

ErrorCodes('start-up errors are KilnErrors carrying their code', () => {
  class NotAController {}
  try {
    createServer({ controllers: [NotAController] });
    assert.unreachable('createServer should have thrown');
  } catch (error) {
    assert.instance(error, KilnError);
    assert.is((error as KilnError).code, 'KILN001');
  }
});

ErrorCodes.run();
