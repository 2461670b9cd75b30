// Fan-out across processes: two Kiln processes and a redis-server started by this suite; an SSE
// client of one receives, projected to its type, what a request to the other published.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { redisInstalled, startRedis, type TestRedis } from '../support/redis-server.js';

const server = fileURLToPath(new URL('./support/fan-out-server.js', import.meta.url));
let redis: TestRedis | undefined;
const processes: ChildProcess[] = [];

async function startProcess(url: string): Promise<string> {
  const child = spawn(process.execPath, [server], { env: { ...process.env, REDIS_URL: url }, stdio: ['ignore', 'pipe', 'inherit'] });
  processes.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const match = /listening (\d+)/.exec(output);
      if (match !== null) resolve(`http://127.0.0.1:${match[1]}`);
    });
    child.once('exit', (code) => reject(new Error(`the server process exited with ${code}: ${output}`)));
  });
}

test.after(async () => {
  for (const child of processes) {
    if (child.exitCode !== null) continue;
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
  await redis?.stop();
});

test('a message published through one process reaches an SSE client of the other, projected to its type', async () => {
  if (!redisInstalled()) return;
  redis = await startRedis();
  const [one, two] = await Promise.all([startProcess(redis.url), startProcess(redis.url)]);
  const controller = new AbortController();
  const stream = await fetch(`${two}/ticks`, { signal: controller.signal });
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
    const published = await fetch(`${one}/publish`, {
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
