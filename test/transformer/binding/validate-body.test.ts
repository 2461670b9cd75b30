import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  HttpError,
  allBodiesValid,
  bodyValidationError,
  validateBody,
  type BodyValidationError,
  type BodyValidator,
} from '@kiln/core/binding';

const failing =
  (errors: { path: string; expected: string; value?: unknown }[]): BodyValidator =>
  () => ({ success: false, errors });
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
    validateBody(
      {},
      true,
      failing([
        { path: '$input.age', expected: 'number & Minimum<0>', value: -1 },
        { path: '$input.name', expected: 'string' },
      ]),
    );
    assert.unreachable();
  } catch (error) {
    assert.instance(error, HttpError);
    const e = error as HttpError;
    assert.is(e.status, 400);
    assert.is(
      e.message,
      'Invalid request body: $input.age expected number & Minimum<0>, got -1; $input.name expected string, got undefined',
    );
    assert.equal(e.data, {
      errors: [
        { path: '$input.age', expected: 'number & Minimum<0>', value: -1 },
        { path: '$input.name', expected: 'string' },
      ],
    });
  }
});

test('validateBody: a field path replaces $input at the start of each path', () => {
  try {
    validateBody(
      {},
      true,
      failing([
        { path: '$input', expected: 'string', value: 1 },
        { path: '$input.a[0]', expected: 'number', value: 'x' },
      ]),
      '$input.user',
    );
    assert.unreachable();
  } catch (error) {
    const e = error as HttpError;
    assert.is(e.message, 'Invalid request body: $input.user expected string, got 1; $input.user.a[0] expected number, got "x"');
    assert.equal(
      (e.data as { errors: { path: string }[] }).errors.map((x) => x.path),
      ['$input.user', '$input.user.a[0]'],
    );
  }
});

test('validateBody with a failures list collects instead of throwing; allBodiesValid answers for all', () => {
  const failures: BodyValidationError[] = [];
  assert.is(validateBody('a', true, failing([{ path: '$input', expected: 'number', value: 'a' }]), '$input.x', failures), 'a');
  assert.is(validateBody(2, true, passing, '$input.y', failures), 2);
  assert.is(validateBody(3, true, failing([{ path: '$input', expected: 'string', value: 3 }]), '$input.z', failures), 3);
  assert.equal(
    failures.map((f) => f.path),
    ['$input.x', '$input.z'],
  );
  assert.throws(
    () => allBodiesValid(['a', 2, 3], failures),
    (error: HttpError) =>
      error.status === 400 && error.message === 'Invalid request body: $input.x expected number, got "a"; $input.z expected string, got 3',
  );
  const args = [1];
  assert.is(allBodiesValid(args, []), args);
});

test('bodyValidationError: the message and data.errors list ten failures, data.more counts the rest', () => {
  const failures = Array.from({ length: 12 }, (_, i) => ({ path: `$input[${i}]`, expected: 'number', value: 'x' }));
  const error = bodyValidationError(failures);
  assert.is(error.message.split('; ').length, 11);
  assert.ok(error.message.endsWith('; and 2 more'), error.message);
  const data = error.data as { errors: unknown[]; more: number };
  assert.is(data.errors.length, 10);
  assert.is(data.more, 2);
});

test('bodyValidationError: a long received value is shortened, in the message to 60 bytes, in data.errors to 100', () => {
  const value = 'y'.repeat(1000);
  const error = bodyValidationError([{ path: '$input', expected: 'number', value }]);
  assert.is(error.message, `Invalid request body: $input expected number, got "${'y'.repeat(55)}...`);
  assert.is((error.data as { errors: { value: unknown }[] }).errors[0]!.value, `"${'y'.repeat(95)}...`);
  const short = bodyValidationError([{ path: '$input', expected: 'number', value: { a: [1, 2] } }]);
  assert.equal((short.data as { errors: { value: unknown }[] }).errors[0]!.value, { a: [1, 2] }, 'a short value is kept as it is');
});

test('bodyValidationError: 100,000 failures with long paths, types and escaped values make a 400 under 16 KiB', () => {
  const key = '\u0001€'.repeat(5000);
  const failures = Array.from({ length: 100_000 }, (_, i) => ({
    path: `$input["${key}${i}"]`,
    expected: `(${key} | undefined)`,
    value: { [key]: key },
  }));
  const error = bodyValidationError(failures);
  const body = JSON.stringify({ error: 'Bad Request', message: error.message, data: error.data });
  assert.ok(Buffer.byteLength(body) <= 16 * 1024, `${Buffer.byteLength(body)} bytes`);
  assert.is((error.data as { more: number }).more, 99_990);
});

test('validateBody: a validator reporting 150,000 failures is collected without spreading them, and counted', () => {
  const many = Array.from({ length: 150_000 }, (_, i) => ({ path: `$input.k${i}`, expected: 'undefined', value: i }));
  const failures: BodyValidationError[] = [];
  validateBody({}, true, failing(many), '$input.a', failures);
  validateBody({}, true, failing(many.slice(0, 3)), '$input.b', failures);
  assert.is(failures.length, 10);
  assert.throws(
    () => allBodiesValid([], failures),
    (error: HttpError) => (error.data as { more: number }).more === 150_003 - 10,
  );
});

test.run();
