// The package's own SHA-1 and SHA-256 (src/digests.ts, which keeps node:crypto out of it so that a
// Workers bundle builds) against Node's, for every string; and no module of the package imports
// a node: built-in (issue 34, item 10).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { base64url, sha1Hex, sha256 } from '../src/digests.js';

test("sha1Hex and sha256 equal node:crypto's for every string (any length, any code point) and at every block edge", () => {
  const same = (text: string) => {
    assert.is(sha1Hex(text), createHash('sha1').update(text).digest('hex'));
    assert.is(base64url(sha256(text)), createHash('sha256').update(text).digest('base64url'));
  };
  for (let length = 0; length <= 130; length++) same('k'.repeat(length));
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 600 }), (text) => same(text)),
    { numRuns: 300 },
  );
});

test('no source file of @kiln/rate-limit imports a node: built-in: it bundles for Workers as it is', () => {
  const src = fileURLToPath(new URL('../../../../packages/rate-limit/src/', import.meta.url));
  for (const file of readdirSync(src)) {
    assert.not.match(readFileSync(join(src, file), 'utf8'), /from 'node:|require\('node:/, file);
  }
});

test.run();
