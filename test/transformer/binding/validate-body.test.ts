import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HttpError, allBodiesValid, bodyValidationError, validateBody, type BodyValidationError, type BodyValidator } from '@kiln/core/binding';

const failing = (errors: { path: string; expected: string; value?: unknown }[]): BodyValidator => () => ({ success: false, errors });
const passing: BodyValidator = () => ({ success: true });
const throwing: BodyValidator = () => {
  throw new Error('must not be called');
};

test('validateBody: without strict the value passes through and the validator is not called', () => {
  const body = { a: 1 };
  assert.is(validateBody(body, false, throwing), body);
});

test('validateBody: with strict a valid value is returned as it is', () => {
  const body = { a: 1 };
  assert.is(validateBody(body, true, passing), body);
});

test('validateBody: with strict a failure is a 400 HttpError listing every path, with data.errors', () => {
  try {
    validateBody({}, true, failing([
      { path: '$input.age', expected: 'number & Minimum<0>', value: -1 },
      { path: '$input.name', expected: 'string' },
    ]));
    assert.unreachable();
  } catch (error) {
    assert.instance(error, HttpError);
    const e = error as HttpError;
    assert.is(e.status, 400);
    assert.is(e.message, 'Invalid request body: $input.age expected number & Minimum<0>, got -1; $input.name expected string, got undefined');
    assert.equal(e.data, { errors: [{ path: '$input.age', expected: 'number & Minimum<0>', value: -1 }, { path: '$input.name', expected: 'string', value: undefined }] });
  }
});

test('validateBody: a field path replaces $input at the start of each path', () => {
  try {
    validateBody({}, true, failing([{ path: '$input', expected: 'string', value: 1 }, { path: '$input.a[0]', expected: 'number', value: 'x' }]), '$input.user');
    assert.unreachable();
  } catch (error) {
    const e = error as HttpError;
    assert.is(e.message, 'Invalid request body: $input.user expected string, got 1; $input.user.a[0] expected number, got "x"');
    assert.equal((e.data as { errors: { path: string }[] }).errors.map((x) => x.path), ['$input.user', '$input.user.a[0]']);
  }
});

test('validateBody with a failures list collects instead of throwing; allBodiesValid answers for all', () => {
  const failures: BodyValidationError[] = [];
  assert.is(validateBody('a', true, failing([{ path: '$input', expected: 'number', value: 'a' }]), '$input.x', failures), 'a');
  assert.is(validateBody(2, true, passing, '$input.y', failures), 2);
  assert.is(validateBody(3, true, failing([{ path: '$input', expected: 'string', value: 3 }]), '$input.z', failures), 3);
  assert.equal(failures.map((f) => f.path), ['$input.x', '$input.z']);
  assert.throws(() => allBodiesValid(['a', 2, 3], failures), (error: HttpError) =>
    error.status === 400 && error.message === 'Invalid request body: $input.x expected number, got "a"; $input.z expected string, got 3');
  const args = [1];
  assert.is(allBodiesValid(args, []), args);
});

test('bodyValidationError: the message lists ten failures, data.errors every one', () => {
  const failures = Array.from({ length: 12 }, (_, i) => ({ path: `$input[${i}]`, expected: 'number', value: 'x' }));
  const error = bodyValidationError(failures);
  assert.is(error.message.split('; ').length, 11);
  assert.ok(error.message.endsWith('; and 2 more (see data.errors)'), error.message);
  assert.is((error.data as { errors: unknown[] }).errors.length, 12);
});

test('bodyValidationError: a long received value is shortened in the message only', () => {
  const value = 'y'.repeat(100);
  const error = bodyValidationError([{ path: '$input', expected: 'number', value }]);
  assert.is(error.message, `Invalid request body: $input expected number, got "${'y'.repeat(56)}...`);
  assert.is((error.data as { errors: { value: unknown }[] }).errors[0]!.value, value);
});

test.run();
