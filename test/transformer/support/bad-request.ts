// What the binding suites assert of every conversion that refuses a value: a 400 HttpError with
// exactly the message a client reads.
import * as assert from 'uvu/assert';
import { HttpError } from '@kiln/core/binding';

/** Asserts that `run()` throws an HttpError 400 whose message is `message`; returns it for more checks. */
export function throwsBadRequest(run: () => unknown, message: string): HttpError {
  try {
    run();
  } catch (error) {
    assert.instance(error, HttpError);
    assert.is((error as HttpError).status, 400);
    assert.is((error as Error).message, message);
    return error as HttpError;
  }
  assert.unreachable(`expected: ${message}`);
  throw new Error('unreachable'); // uvu's unreachable() is not typed `never`
}
