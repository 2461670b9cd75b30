import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { toBooleanArray, toDateArray, toEnum, toEnumArray, toJsonArray, toNumberArray } from '@kiln/core/binding';
import { throwsBadRequest } from '../support/bad-request.js';

test('toNumberArray: converts each item; a strict failure names the item index', () => {
  assert.equal(toNumberArray(['1', '2'], 'ids', true), [1, 2]);
  const lenient = toNumberArray(['1', 'x'], 'ids', false);
  assert.is(lenient[0], 1);
  assert.ok(Number.isNaN(lenient[1]));
  throwsBadRequest(() => toNumberArray(['1', 'x'], 'ids', true), "Parameter 'ids[1]' expected number, got 'x'");
});

test('toDateArray, toJsonArray, toBooleanArray: each item, indexes in strict messages', () => {
  throwsBadRequest(() => toDateArray(['x'], 'd', true), "Parameter 'd[0]' expected valid date, got 'x'");
  assert.equal(toJsonArray(['{"a":1}', 'no'], 'j', false), [{ a: 1 }, null]);
  throwsBadRequest(() => toJsonArray(['1', 'no'], 'j', true), "Parameter 'j[1]' expected valid JSON, got 'no'");
  assert.equal(toBooleanArray(['true', '1', 'no']), [true, true, false]);
});

test('toEnum: an allowed string unchanged; numeric text becomes its number for numeric members', () => {
  assert.is(toEnum('asc', 's', true, ['asc', 'desc']), 'asc');
  assert.is(toEnum('1', 'l', true, [0, 1, 2]), 1);
  assert.is(toEnum('1', 'mixed', true, ['1', 1]), '1', 'an allowed string wins over its number');
  assert.is(toEnum('', 'l', false, [0]), null, 'blank text is not 0');
  assert.is(toEnum('up', 's', false, ['asc', 'desc']), null);
  throwsBadRequest(() => toEnum('up', 's', true, ['asc', 'desc']), "Parameter 's' expected one of [asc, desc], got 'up'");
  assert.is(toEnum(undefined, 's', true, ['asc']), undefined);
});

test('toEnumArray: each item; a strict failure names the item index', () => {
  assert.equal(toEnumArray(['a', 'z'], 'e', false, ['a', 'b']), ['a', null]);
  throwsBadRequest(() => toEnumArray(['a', 'z'], 'e', true, ['a', 'b']), "Parameter 'e[1]' expected one of [a, b], got 'z'");
});

test.run();
