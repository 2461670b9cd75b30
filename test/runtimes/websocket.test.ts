// WebSocket routes on every runtime: the conformance app (its SocketsController) bundled by esbuild
// and served by Node, Bun, Deno (app.listen()) and workerd (the worker's fetch), with the `ws`
// package as the client. The same checks on each: echo with the reply projected to its type, the
// origin check (the own origin connects, a foreign one and null answer 403), the
// closes for a message that is not JSON, does not fit, or is too large, a guard refusing the
// upgrade, rooms, 200 concurrent connections, a silent peer cut, and 1001 on shutdown.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connect, refusal } from '../support/socket-client.js';
import { bundleEntries, serveOn, type RuntimeName, type ServedRuntime } from './support/served-runtimes.js';

const runtimes: RuntimeName[] = ['node20', 'bun', 'deno', 'workerd'];

test.before(async () => {
  await bundleEntries();
});

for (const name of runtimes) {
  test(`${name}: typed messages, limits, a guard, rooms, 200 connections, keep-alive and shutdown`, async () => {
    const served: ServedRuntime = await serveOn(name);
    try {
      const base = served.bases.strict.replace('http://', 'ws://');

      const echo = await connect(`${base}/sockets/echo/ada`);
      echo.send({ text: 'hello ✓' });
      assert.equal(await echo.next(), { from: 'ada', text: 'hello ✓' }, 'echo, projected to ChatOut');
      await echo.close();

      const notJson = await connect(`${base}/sockets/echo/ada`);
      notJson.send('{"text":');
      assert.equal(await notJson.closed, { code: 1007, reason: 'The message is not valid JSON' });

      const wrongShape = await connect(`${base}/sockets/echo/ada`);
      wrongShape.send({ text: 7 });
      assert.equal(await wrongShape.closed, { code: 1007, reason: '$input.text: expected string' });

      const tooLarge = await connect(`${base}/sockets/echo/ada`);
      tooLarge.send({ text: 'x'.repeat(2048) });
      assert.is((await tooLarge.closed).code, 1009, 'a message past maxMessageSize');

      // The origin check: the server's own origin connects, another one is refused before the upgrade.
      const own = await connect(`${base}/sockets/echo/own`, { origin: served.bases.strict });
      own.send({ text: 'same origin' });
      assert.equal(await own.next(), { from: 'own', text: 'same origin' });
      await own.close();
      const hijack = await refusal(`${base}/sockets/echo/ada`, { origin: 'https://evil.example' });
      assert.is(hijack.status, 403, 'a foreign origin');
      assert.equal(JSON.parse(hijack.body), {
        error: 'Forbidden',
        message: 'Origin https://evil.example is not allowed for this WebSocket route',
      });
      assert.is((await refusal(`${base}/sockets/echo/ada`, { origin: 'null' })).status, 403, 'the null origin');
      // Behind a proxy (the default trustProxy believes a loopback peer, and workerd's requests have none):
      // the forwarded scheme and host are the server's own origin.
      const proxied = await connect(`${base}/sockets/echo/proxied`, {
        origin: 'https://chat.example',
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'chat.example' },
      });
      proxied.send({ text: 'through a proxy' });
      assert.equal(await proxied.next(), { from: 'proxied', text: 'through a proxy' });
      await proxied.close();

      const refused = await refusal(`${base}/sockets/members`);
      assert.is(refused.status, 401);
      assert.equal(JSON.parse(refused.body), { error: 'Unauthorized', message: 'Sign in to chat' });
      const member = await connect(`${base}/sockets/members`, { headers: { authorization: 'Bearer member' } });
      assert.equal(await member.next(), { from: 'server', text: 'welcome' });
      await member.close();

      // workerd lets a request's code write only to its own sockets: rooms there need Durable Objects.
      if (name !== 'workerd') {
        const [ada, grace] = [await connect(`${base}/sockets/rooms/lobby`), await connect(`${base}/sockets/rooms/lobby`)];
        for (const client of [ada, grace]) assert.equal(await client.next(), { from: 'server', text: 'joined lobby' });
        ada.send({ text: 'hi' });
        assert.equal(await grace.next(), { from: 'lobby', text: 'hi' });
        assert.equal(await ada.next(), { from: 'lobby', text: 'hi' });
        await Promise.all([ada.close(), grace.close()]);
      }

      const many = await Promise.all(Array.from({ length: 200 }, (_, i) => connect(`${base}/sockets/echo/c${i}`)));
      many.forEach((client, i) => client.send({ text: `${i}` }));
      assert.equal(
        await Promise.all(many.map((client) => client.next())),
        many.map((_, i) => ({ from: `c${i}`, text: `${i}` })),
      );
      await Promise.all(many.map((client) => client.close()));

      if (name !== 'workerd') {
        // workerd answers pings itself and sends none: a dead peer is the runtime's to notice.
        const silent = await connect(`${base}/sockets/echo/ada`, { autoPong: false });
        const closed = await silent.closed;
        assert.ok([1006, 1001].includes(closed.code), `a silent peer is cut (${closed.code})`);

        const open = await connect(`${base}/sockets/echo/ada`);
        served.terminate();
        const shutdown = await open.closed;
        assert.is(shutdown.code, 1001, 'app.close() closes with 1001');
        // Deno's own shutdown closes the connection first, with its reason.
        assert.is(shutdown.reason, name === 'deno' ? 'Server shutting down' : 'The server is shutting down');
        // ...and app.close() resolves at once (the entry then exits 0), not at its 10 s shutdownTimeout.
        const exit = await Promise.race([served.exited, new Promise((resolve) => setTimeout(resolve, 5_000, 'still running after 5 s'))]);
        assert.is(exit, 0, 'app.close() resolves once its WebSocket connections are closed');
      }
    } finally {
      served.stop();
    }
  });
}

test.run();
