// WebSocket rooms across processes: two Kiln processes whose rooms go through one Redis (started
// by this suite); a socket of one receives what a socket, or an HTTP route, of the other published.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fileURLToPath } from 'node:url';
import { ListeningProcesses } from '../support/listening-process.js';
import { redisInstalled, startRedis, type TestRedis } from '../support/redis-server.js';
import { connect } from '../support/socket-client.js';

const server = fileURLToPath(new URL('./support/socket-fan-out-server.js', import.meta.url));
let redis: TestRedis | undefined;
const processes = new ListeningProcesses();

test.after(async () => {
  await processes.stop();
  await redis?.stop();
});

test('a socket of one process receives what a socket and a route of the other published, projected to its type', async () => {
  if (!redisInstalled()) return;
  redis = await startRedis();
  const env = { REDIS_URL: redis.url };
  const [one, two] = await Promise.all([processes.start(server, env), processes.start(server, env)]);
  const [pidOne, pidTwo] = processes.children.map((child) => child.pid);
  const listener = await connect(`ws://127.0.0.1:${one}/rooms/lobby`);
  const speaker = await connect(`ws://127.0.0.1:${two}/rooms/lobby`);
  assert.equal(await listener.next(), { from: `process ${pidOne}`, text: 'subscribed' });
  assert.equal(await speaker.next(), { from: `process ${pidTwo}`, text: 'subscribed' });

  speaker.send({ text: 'hello from the other process ✓' });
  assert.equal(await listener.next(), { from: `process ${pidTwo}`, text: 'hello from the other process ✓' });
  assert.equal(await speaker.next(), { from: `process ${pidTwo}`, text: 'hello from the other process ✓' });

  const published = await fetch(`http://127.0.0.1:${two}/rooms/lobby`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ from: 'ops', text: 'maintenance at noon', secret: 'stays on the server' }),
  });
  assert.is(published.status, 200);
  assert.equal(await listener.next(), { from: 'ops', text: 'maintenance at noon' });
  assert.equal(await speaker.next(), { from: 'ops', text: 'maintenance at noon' });
  await Promise.all([listener.close(), speaker.close()]);
});

test.run();
