import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get, Post, compiledBinder, HttpStatus, HttpCode, type KilnRequest } from 'kiln';
import { start, request, requestInProcess } from '../support/server.js';

@Controller('/users')
class Users {
  @Get('/:id') @compiledBinder((req: KilnRequest) => [Number(req.params.id), req.query.tags])
  get(id: number, tags: unknown) { return { id, tags }; }
  @Post('/') @HttpStatus(HttpCode.CREATED) @compiledBinder(async (req: KilnRequest) => [await req.parseBody()])
  create(body: unknown) { return body; }
}

test('smoke', async () => {
  const s = await start({ controllers: [Users] });
  const r = await request(s.base, '/users/42?tags=a&tags=b');
  assert.is(r.status, 200);
  assert.equal(r.json(), { id: 42, tags: ['a', 'b'] });
  const p = await request(s.base, '/users', { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
  assert.is(p.status, 201);
  assert.equal(p.json(), { a: 1 });
  const f = await requestInProcess(s.app, '/users/7');
  assert.equal(f.json(), { id: 7 });
  const nf = await request(s.base, '/nope');
  assert.is(nf.status, 404);
  console.log(nf.text, (await request(s.base, '/users/1', { method: 'DELETE' })).headers.get('allow'));
  await s.close();
});
test.run();
