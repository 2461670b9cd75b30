import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get } from '@kiln/core';
import { start, request } from '../support/server.js';

@Controller('/s')
class SlowController {
  @Get('/slow') async slow() {
    await new Promise((r) => setTimeout(r, 300));
    return { finished: true };
  }
  @Get('/never') never() {
    return new Promise(() => {});
  }
  @Get('/fast') fast() {
    return { fast: true };
  }
}

const Shutdown = suite('graceful shutdown');

Shutdown('close() lets in-flight requests finish, refuses new connections, then resolves', async () => {
  const server = await start({ controllers: [SlowController] });
  await request(server.base, '/s/fast'); // leaves an idle keep-alive connection behind
  const inFlight = request(server.base, '/s/slow');
  await new Promise((r) => setTimeout(r, 50));
  const closing = server.close();
  let closed = false;
  void closing.then(() => {
    closed = true;
  });
  await new Promise((r) => setTimeout(r, 50));
  const refused = await fetch(`${server.base}/s/fast`).then(
    () => 'answered',
    (error) => error.cause?.code ?? String(error),
  );
  assert.is(refused, 'ECONNREFUSED');
  assert.is(closed, false, 'close() waits for the in-flight request');
  const reply = await inFlight;
  assert.is(reply.status, 200);
  assert.equal(reply.json(), { finished: true });
  await closing;
});

Shutdown('close() cuts requests still running after shutdownTimeout', async () => {
  const server = await start({ controllers: [SlowController], shutdownTimeout: 200 });
  const stuck = fetch(`${server.base}/s/never`).then(
    () => 'answered',
    () => 'cut',
  );
  await new Promise((r) => setTimeout(r, 50));
  const started = Date.now();
  await server.close();
  const took = Date.now() - started;
  assert.ok(took >= 150 && took < 1500, `close() took ${took} ms`);
  assert.is(await stuck, 'cut');
});

Shutdown('close() on a server that never listened resolves', async () => {
  const { createServer } = await import('@kiln/core');
  await createServer({ controllers: [SlowController] }).close();
});

Shutdown.run();
