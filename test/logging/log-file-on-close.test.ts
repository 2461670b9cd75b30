// The logging page's file setup, `pino(pino.destination(path))` behind requestLogger(): when
// app.close() resolves, the file holds one line for every request the server answered, so a
// process that exits right after close() loses none. Requests over real sockets on 127.0.0.1.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { Controller, Get, Param, createServer, requestLogger } from '@kiln/core';

@Controller('/books')
class BooksController {
  @Get('/:id')
  get(@Param('id') id: number) {
    return { id };
  }
}

const test = suite('requestLogger() to a file: every line is written when close() resolves');

test('100 requests, 20 at a time on kept-alive connections: 100 lines with their ids, statuses and targets', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'kiln-log-file-')), 'requests.log');
  const app = createServer({ controllers: [BooksController], middlewares: [requestLogger()], logger: pino(pino.destination(file)) });
  const { port } = await app.listen(0, '127.0.0.1');
  const ids: string[] = [];
  for (let batch = 0; batch < 5; batch++) {
    const replies = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const reply = await fetch(`http://127.0.0.1:${port}/books/${batch * 20 + i}?v=${i}`);
        assert.is(reply.status, 200);
        await reply.arrayBuffer();
        return reply.headers.get('x-request-id')!;
      }),
    );
    ids.push(...replies);
  }
  await app.close();
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
  assert.is(lines.length, 100, 'one line per request, none left in memory');
  assert.equal(lines.map((line) => line.req.id).sort(), [...ids].sort());
  for (const line of lines) {
    assert.is(line.msg, 'request completed');
    assert.equal(line.res, { statusCode: 200 });
    assert.match(line.req.url, /^\/books\/\d+\?v=\d+$/);
  }
});

test.run();
