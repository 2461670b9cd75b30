// Fan-out across processes: two Kiln processes and a redis-server started by this suite; an SSE
// client of one receives, projected to its type, what a request to the other published.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fileURLToPath } from 'node:url';
import { ListeningProcesses } from '../support/listening-process.js';
import { redisInstalled, startRedis, type TestRedis } from '../support/redis-server.js';

const server = fileURLToPath(new URL('./support/fan-out-server.js', import.meta.url));
let redis: TestRedis | undefined;
const processes = new ListeningProcesses();

test.after(async () => {
  await processes.stop();
  await redis?.stop();
});

test('a message published through one process reaches an SSE client of the other, projected to its type', async () => {
  if (!redisInstalled()) return;
  redis = await startRedis();
  const env = { REDIS_URL: redis.url };
  const [one, two] = await Promise.all([processes.start(server, env), processes.start(server, env)]);
  const controller = new AbortController();
  const stream = await fetch(`http://127.0.0.1:${two}/ticks`, { signal: controller.signal });
  const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  const until = async (needle: string) => {
    while (!text.includes(needle)) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`the stream ended before ${needle}: ${text}`);
      text += value;
    }
  };
  await until('event: ready');
  for (let n = 1; n <= 3; n++) {
    const published = await fetch(`http://127.0.0.1:${one}/publish`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ n, label: `tick ${n} ✓`, secret: 'stays on the server' }),
    });
    assert.is(published.status, 200);
    await until(`"n":${n}`);
  }
  controller.abort();
  const events = text.split('\n\n').filter((event) => event !== '' && event !== ':');
  assert.is(events.length, 4, text);
  assert.match(events[0]!, /^event: ready\ndata: \{"n":0,"label":"subscribed on \d+"\}$/);
  assert.equal(
    events.slice(1),
    [1, 2, 3].map((n) => `data: {"n":${n},"label":"tick ${n} ✓"}`),
  );
});

test.run();
