import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BodyParseError, HttpError, bodyField, readBody, requiredBody, type KilnRequest } from '@kiln/core/binding';

const jsonHeaders = () => new Headers({ 'content-type': 'application/json' });
const requestRejecting = (error: unknown) => ({ headers: jsonHeaders(), parseBody: () => Promise.reject(error) }) as unknown as KilnRequest;
const requestWith = (body: unknown) => ({ headers: jsonHeaders(), parseBody: () => Promise.resolve(body) }) as unknown as KilnRequest;

test('readBody: the parsed body in both modes', async () => {
  assert.equal(await readBody(requestWith({ a: 1 }), false), { a: 1 });
  assert.equal(await readBody(requestWith({ a: 1 }), true), { a: 1 });
});

test('readBody: invalid JSON is undefined when lenient and the 400 when strict', async () => {
  const parseError = new BodyParseError(400, 'Failed to parse JSON body: Unexpected end of JSON input');
  assert.is(await readBody(requestRejecting(parseError), false), undefined);
  await readBody(requestRejecting(parseError), true).then(
    () => assert.unreachable(),
    (error) => assert.is(error, parseError),
  );
});

test('readBody: a multipart body is refused with 415 before it is parsed, in both modes', async () => {
  const multipart = {
    headers: new Headers({ 'content-type': 'multipart/form-data; boundary=x' }),
    parseBody: () => assert.unreachable('the body was parsed'),
  } as unknown as KilnRequest;
  for (const strict of [false, true]) {
    await readBody(multipart, strict).then(
      () => assert.unreachable(),
      (error) => {
        assert.instance(error, HttpError);
        assert.is((error as HttpError).status, 415);
      },
    );
  }
});

test('readBody: other HttpErrors (413, 415) propagate in both modes', async () => {
  const tooLarge = new HttpError(413, 'Payload Too Large');
  for (const strict of [false, true]) {
    await readBody(requestRejecting(tooLarge), strict).then(
      () => assert.unreachable(),
      (error) => assert.is(error, tooLarge),
    );
  }
});

test('bodyField: a field of an object body; undefined otherwise', () => {
  assert.is(bodyField({ name: 'Ada' }, 'name'), 'Ada');
  assert.is(bodyField('text', 'name'), undefined);
  assert.is(bodyField(null, 'name'), undefined);
  assert.is(bodyField(undefined, 'name'), undefined);
});

test('bodyField: never an inherited member', () => {
  assert.is(bodyField(JSON.parse('{"a":1}'), 'constructor'), undefined);
  assert.is(bodyField(JSON.parse('{"a":1}'), '__proto__'), undefined);
  assert.is(bodyField(JSON.parse('{"constructor":"own"}'), 'constructor'), 'own');
});

test('requiredBody: 400 for an absent body only when strict', () => {
  assert.is(requiredBody(undefined, false), undefined);
  assert.throws(
    () => requiredBody(undefined, true),
    (error: Error) => error.message === 'Request body is required',
  );
  assert.equal(requiredBody({}, true), {});
});

test.run();
