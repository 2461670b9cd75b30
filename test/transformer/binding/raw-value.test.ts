import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { firstText, listOf, splitHeader } from '@kiln/core/binding';

test('firstText: a string, the first of a repeated key, undefined for null and undefined', () => {
  assert.is(firstText('a'), 'a');
  assert.is(firstText(['b', 'c']), 'b');
  assert.is(firstText(null), undefined);
  assert.is(firstText(undefined), undefined);
});

test('listOf: every occurrence; one value is a list of one; absent is []', () => {
  assert.equal(listOf(['a', 'b']), ['a', 'b']);
  assert.equal(listOf('a'), ['a']);
  assert.equal(listOf(undefined), []);
  assert.equal(listOf(null), []);
});

test('splitHeader: splits joined header lines on commas, trims, drops empty items', () => {
  assert.equal(splitHeader('1, 2 ,3'), ['1', '2', '3']);
  assert.equal(splitHeader('a,,b,'), ['a', 'b']);
  assert.equal(splitHeader(''), []);
  assert.equal(splitHeader(null), []);
});

test.run();
