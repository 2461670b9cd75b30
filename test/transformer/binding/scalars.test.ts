import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { required, toBoolean, toDate, toJson, toNumber, toText } from '@kiln/core/binding';
import { throwsBadRequest } from '../support/bad-request.js';

test('toText: the text as sent, the first occurrence, undefined when absent', () => {
  assert.is(toText('x'), 'x');
  assert.is(toText(['x', 'y']), 'x');
  assert.is(toText(null), undefined);
});

test('toBoolean: true and 1 are true; anything else and absent are false', () => {
  assert.is(toBoolean('true'), true);
  assert.is(toBoolean('1'), true);
  assert.is(toBoolean('TRUE'), false);
  assert.is(toBoolean('0'), false);
  assert.is(toBoolean(undefined), false);
});

test('toNumber: converts; NaN when lenient; 400 when strict; undefined when absent', () => {
  assert.is(toNumber('1.5', 'n', true), 1.5);
  assert.is(toNumber(['2', '3'], 'n', true), 2);
  assert.ok(Number.isNaN(toNumber('x', 'n', false)));
  assert.ok(Number.isNaN(toNumber(' ', 'n', false)), 'blank text is not 0');
  throwsBadRequest(() => toNumber('x', 'n', true), "Parameter 'n' expected number, got 'x'");
  assert.is(toNumber(undefined, 'n', true), undefined);
});

test('toDate: converts; Invalid Date when lenient; 400 when strict', () => {
  assert.is(toDate('2024-01-02', 'd', true)!.toISOString(), '2024-01-02T00:00:00.000Z');
  assert.ok(Number.isNaN(toDate('x', 'd', false)!.getTime()));
  throwsBadRequest(() => toDate('x', 'd', true), "Parameter 'd' expected valid date, got 'x'");
});

test('toJson: parses; null when lenient; 400 when strict', () => {
  assert.equal(toJson('{"a":[1]}', 'o', true), { a: [1] });
  assert.is(toJson('{', 'o', false), null);
  throwsBadRequest(() => toJson('{', 'o', true), "Parameter 'o' expected valid JSON, got '{'");
});

test('required: passes a present value; 400 for an absent one only when strict', () => {
  assert.is(required('', 'r', true), '');
  assert.is(required(undefined, 'r', false), undefined);
  throwsBadRequest(() => required(undefined, 'r', true), "Parameter 'r' is required");
  throwsBadRequest(() => required(null, 'r', true), "Parameter 'r' is required");
});

test.run();
