// Graceful shutdown, ordered by events rather than the wall clock: a handler that waits on a gate
// the test opens, and a fake clock for the shutdownTimeout deadline.
import { connect } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get } from '@kiln/core';
import { start, request } from '../support/server.js';
import { event, holdTimers, nextTurn } from '../support/fake-timers.js';

/** Signalled when a request reaches /s/slow, which answers once `gate` is opened. */
let entered = event();
let gate = event();

@Controller('/s')
class SlowController {
  @Get('/slow') async slow() {
    entered.resolve();
    await gate.promise;
    return { finished: true };
  }
  @Get('/never') never() {
    entered.resolve();
    return new Promise(() => {});
  }
  @Get('/fast') fast() {
    return { fast: true };
  }
}

const Shutdown = suite('graceful shutdown');
Shutdown.before.each(() => {
  entered = event();
  gate = event();
});

Shutdown('close() lets in-flight requests finish, refuses new connections, then resolves', async () => {
  const server = await start({ controllers: [SlowController] });
  await request(server.base, '/s/fast'); // leaves an idle keep-alive connection behind
  const inFlight = request(server.base, '/s/slow');
  await entered.promise;
  const closing = server.close();
  let closed = false;
  void closing.then(() => {
    closed = true;
  });
  await nextTurn(); // close() has stopped the listener
  // A new connection, not the pool's idle one (which close() ends, and fetch may pick).
  const refused = await new Promise<string>((resolve) => {
    const socket = connect(Number(new URL(server.base).port), '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve('accepted');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? String(error)));
  });
  assert.is(refused, 'ECONNREFUSED');
  assert.is(closed, false, 'close() waits for the in-flight request');
  gate.resolve();
  const reply = await inFlight;
  assert.is(reply.status, 200);
  assert.equal(reply.json(), { finished: true });
  await closing;
});

Shutdown('close() cuts requests still running at shutdownTimeout, and not before', async () => {
  const shutdownTimeout = 4321; // the fake clock holds the timers of this delay
  const clock = holdTimers(shutdownTimeout);
  try {
    const server = await start({ controllers: [SlowController], shutdownTimeout });
    let outcome = 'pending';
    const stuck = fetch(`${server.base}/s/never`).then(
      () => (outcome = 'answered'),
      () => (outcome = 'cut'),
    );
    await entered.promise;
    let closed = false;
    const closing = server.close().then(() => {
      closed = true;
    });
    await clock.waiting(); // the grace period has begun
    clock.advance(shutdownTimeout - 1);
    await nextTurn();
    assert.is(outcome, 'pending', 'not cut before shutdownTimeout');
    assert.is(closed, false);
    assert.ok(clock.advance(1) >= 1, 'the deadline timer ran');
    await stuck;
    assert.is(outcome, 'cut');
    await closing;
  } finally {
    clock.restore();
  }
});

Shutdown('close() on a server that never listened resolves', async () => {
  const { createServer } = await import('@kiln/core');
  await createServer({ controllers: [SlowController] }).close();
});

Shutdown.run();
