// The invariant that keeps positions true: the checker's text differs from the user's only by
// blanks of the same length where Kiln decorators were, and by code after the last original character.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from './support/compile-fixture.js';

const { rewriteSource } = createRequire(import.meta.url)(join(root, 'dist', 'transformer', 'emit', 'source-rewriter.cjs'));

const text = "class A {\n  get(@Param('id') id: number, @Query(\n    'q',\r\n  ) q: string) {}\n}";
const ranges = [
  { start: text.indexOf('@Param'), end: text.indexOf(' id:') },
  { start: text.indexOf('@Query'), end: text.indexOf(' q: string') },
];

test('blanks each range with spaces of the same length, keeping line breaks', () => {
  const rewritten: string = rewriteSource(text, ranges, '');
  assert.is(rewritten.length, text.length);
  assert.is(rewritten.split('\n').length, text.split('\n').length);
  assert.is(rewritten.includes('\r\n'), true);
  assert.not.match(rewritten, /@Param|@Query|'q'/);
  assert.match(rewritten, /get\( +id: number, +\n +\r\n +q: string\)/);
});

test('every character outside the ranges keeps its offset; generated code comes after the end', () => {
  const rewritten: string = rewriteSource(text, [...ranges].reverse(), '\nfunction generated() {}\n');
  for (let i = 0; i < text.length; i++) {
    const blanked = ranges.some((r) => i >= r.start && i < r.end) && text[i] !== '\n' && text[i] !== '\r';
    assert.is(rewritten[i], blanked ? ' ' : text[i], `offset ${i}`);
  }
  assert.is(rewritten.slice(text.length), '\nfunction generated() {}\n');
});

test.run();
