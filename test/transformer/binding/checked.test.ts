// The helpers of tagged, object-typed and scalar-body parameters, with hand-written validators
// shaped like typia's (the conversion suite runs them with typia's own, through the build).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  bodyBoolean,
  bodyEnum,
  bodyNumber,
  bodyText,
  parseNumber,
  parseText,
  toCheckedJson,
  toCheckedJsonArray,
  toTagged,
  toTaggedArray,
  type BodyValidator,
  type KilnRequest,
} from '@kiln/core/binding';
import { throwsBadRequest } from '../support/bad-request.js';

/** `number & Maximum<100>` as typia reports it. */
const atMost100: BodyValidator = (input) =>
  typeof input === 'number' && input <= 100
    ? { success: true }
    : { success: false, errors: [{ path: '$input', expected: 'number & Maximum<100>', value: input }] };

/** `{ age: number }` as typia reports it: one failure per wrong property. */
const hasAge: BodyValidator = (input) => {
  if (typeof input !== 'object' || input === null)
    return { success: false, errors: [{ path: '$input', expected: 'Filter', value: input }] };
  const age = (input as { age?: unknown }).age;
  return typeof age === 'number' ? { success: true } : { success: false, errors: [{ path: '$input.age', expected: 'number', value: age }] };
};

test('toTagged: converted as the base type, then checked only when strict', () => {
  assert.is(toTagged('50', 'limit', true, parseNumber, atMost100), 50);
  assert.is(toTagged('500', 'limit', false, parseNumber, atMost100), 500);
  throwsBadRequest(
    () => toTagged('500', 'limit', true, parseNumber, atMost100),
    "Parameter 'limit' expected number & Maximum<100>, got '500'",
  );
  throwsBadRequest(() => toTagged('x', 'limit', true, parseNumber, atMost100), "Parameter 'limit' expected number, got 'x'");
  assert.is(toTagged(undefined, 'limit', true, parseNumber, atMost100), undefined);
  assert.is(
    toTagged(['7', '8'], 'v', true, parseText, () => ({ success: true })),
    '7',
  );
});

test('toTaggedArray: each item converted and checked; a failure names its index', () => {
  assert.equal(toTaggedArray(['1', '2'], 'ids', true, parseNumber, atMost100), [1, 2]);
  assert.equal(toTaggedArray(['1', '200'], 'ids', false, parseNumber, atMost100), [1, 200]);
  throwsBadRequest(
    () => toTaggedArray(['1', '200'], 'ids', true, parseNumber, atMost100),
    "Parameter 'ids[1]' expected number & Maximum<100>, got '200'",
  );
});

test('toCheckedJson: parsed, then checked in both modes; null without strict, every path with it', () => {
  assert.equal(toCheckedJson('{"age":3}', 'filter', true, hasAge), { age: 3 });
  assert.is(toCheckedJson('{"age":"x"}', 'filter', false, hasAge), null);
  assert.is(toCheckedJson('{age', 'filter', false, hasAge), null);
  assert.is(toCheckedJson(undefined, 'filter', true, hasAge), undefined);
  throwsBadRequest(() => toCheckedJson('{age', 'filter', true, hasAge), "Parameter 'filter' expected valid JSON, got '{age'");
  const error = throwsBadRequest(
    () => toCheckedJson('{"age":"x"}', 'filter', true, hasAge),
    `Invalid parameter 'filter': filter.age expected number, got "x"`,
  );
  assert.equal(error.data, { errors: [{ path: 'filter.age', expected: 'number', value: 'x' }] });
  throwsBadRequest(() => toCheckedJson('5', 'filter', true, hasAge), "Invalid parameter 'filter': filter expected Filter, got 5");
});

test('toCheckedJsonArray: each item checked; paths start at the item', () => {
  assert.equal(toCheckedJsonArray(['{"age":1}', '{"age":"x"}'], 'f', false, hasAge), [{ age: 1 }, null]);
  throwsBadRequest(
    () => toCheckedJsonArray(['{"age":1}', '{"age":"x"}'], 'f', true, hasAge),
    `Invalid parameter 'f[1]': f[1].age expected number, got "x"`,
  );
});

test("toCheckedJson: failures bounded as a body's are: ten listed, the rest counted", () => {
  const many: BodyValidator = () => ({
    success: false,
    errors: Array.from({ length: 12 }, (_, i) => ({ path: `$input.k${i}`, expected: 'number' })),
  });
  try {
    toCheckedJson('{}', 'w', true, many);
    assert.unreachable('a 400');
  } catch (error) {
    const listed = Array.from({ length: 10 }, (_, i) => `w.k${i} expected number, got undefined`).join('; ');
    assert.ok((error as Error).message.startsWith(`Invalid parameter 'w': ${listed}; and 2 more`), (error as Error).message);
    assert.not.match((error as Error).message, 'w.k10');
  }
});

const jsonRequest = { headers: new Headers({ 'content-type': 'application/json' }) } as unknown as KilnRequest;
const formRequest = {
  headers: new Headers({ 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }),
} as unknown as KilnRequest;
const textRequest = { headers: new Headers({ 'content-type': 'text/plain' }) } as unknown as KilnRequest;

test('body scalars: a JSON value is checked as it is; 400 naming the field when strict, unchanged when not', () => {
  assert.is(bodyNumber(jsonRequest, 5, 'n', true), 5);
  throwsBadRequest(() => bodyNumber(jsonRequest, '5', 'n', true), `Parameter 'n' expected number, got "5"`);
  assert.is(bodyNumber(jsonRequest, '5', 'n', false), '5');
  throwsBadRequest(() => bodyBoolean(jsonRequest, 1, 'on', true), "Parameter 'on' expected boolean, got 1");
  throwsBadRequest(() => bodyText(jsonRequest, { a: 1 }, 'name', true), `Parameter 'name' expected string, got {"a":1}`);
  throwsBadRequest(() => bodyEnum(jsonRequest, '2', 'level', true, [0, 1, 2]), `Parameter 'level' expected one of [0, 1, 2], got "2"`);
  throwsBadRequest(() => bodyText(jsonRequest, 5, '', true), 'Request body expected string, got 5');
  assert.is(bodyNumber(jsonRequest, undefined, 'n', true), undefined);
  assert.is(bodyNumber(jsonRequest, null, 'n', true), null);
});

test('body scalars: a form or text/* value is converted like a query parameter', () => {
  assert.is(bodyNumber(formRequest, '5', 'n', true), 5);
  assert.ok(Number.isNaN(bodyNumber(formRequest, 'x', 'n', false) as number));
  throwsBadRequest(() => bodyNumber(formRequest, 'x', 'n', true), "Parameter 'n' expected number, got 'x'");
  assert.is(bodyBoolean(formRequest, '1', 'on', true), true);
  assert.is(bodyEnum(formRequest, '2', 'level', true, [0, 1, 2]), 2);
  assert.is(bodyText(formRequest, ['a', 'b'], 'name', true), 'a');
  assert.is(bodyNumber(textRequest, '7', '', true), 7);
});

test.run();
