// Measurement for issue 24 item 1 (not a test: it times things, so it is not run by npm test).
// 50 clients on 127.0.0.1 ask for a 20 MB JSON answer and read nothing; the server (a child
// process, so that only its memory is counted) has sendTimeout 3 s. Prints the server's open
// sockets and RSS before, at the peak and 2 × sendTimeout after the last answer started.
//   npm run build && node test/run.mjs measure/ && node build/test/hardening/measure/slow-readers.js
import { fork, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { Controller, Get, createServer } from '@kiln/core';

const clients = Number(process.env.CLIENTS ?? 50);
const sendTimeout = Number(process.env.SEND_TIMEOUT ?? 3000);
const megabytes = Number(process.env.MEGABYTES ?? 20);

interface Stats {
  sockets: number;
  rssMb: number;
  rssAfterGcMb?: number;
}

const payload = { items: Array.from({ length: megabytes }, () => 'j'.repeat(2 ** 20)) };

@Controller('/s')
class BigController {
  @Get('/bigjson') bigJson() {
    return payload;
  }
  @Get('/ok') ok() {
    return { ok: true };
  }
}

function serverStats(gc: boolean): Stats {
  const stats: Stats = {
    sockets: process.getActiveResourcesInfo().filter((kind) => kind === 'TCPSocketWrap').length,
    rssMb: Math.round(process.memoryUsage().rss / 2 ** 20),
  };
  if (gc) {
    (globalThis as { gc?: () => void }).gc?.();
    stats.rssAfterGcMb = Math.round(process.memoryUsage().rss / 2 ** 20);
  }
  return stats;
}

async function serve(): Promise<void> {
  const app = createServer({ controllers: [BigController], sendTimeout });
  const { port } = await app.listen(0, '127.0.0.1');
  process.on('message', (message: { gc: boolean }) => process.send!(serverStats(message.gc)));
  process.send!({ port });
}

function ask(child: ChildProcess, gc = false): Promise<Stats> {
  return new Promise((resolve) => {
    child.once('message', (stats) => resolve(stats as Stats));
    child.send({ gc });
  });
}

/** A client that sends its request, sees the answer start, and then reads nothing. */
function stalledClient(port: number): Promise<net.Socket> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write('GET /s/bigjson HTTP/1.1\r\nHost: x\r\n\r\n'));
    socket.on('error', () => {});
    socket.once('data', () => {
      socket.pause();
      resolve(socket);
    });
  });
}

async function measure(): Promise<void> {
  const child = fork(fileURLToPath(import.meta.url), ['serve'], { execArgv: ['--expose-gc'] });
  const { port } = await new Promise<{ port: number }>((resolve) => child.once('message', (m) => resolve(m as { port: number })));
  const before = await ask(child, true);
  const started = performance.now();
  const sockets = await Promise.all(Array.from({ length: clients }, () => stalledClient(port)));
  const allStarted = performance.now();
  let peak = await ask(child);
  const samples: { atMs: number; stats: Stats }[] = [];
  while (performance.now() - allStarted < 2 * sendTimeout) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const stats = await ask(child);
    if (stats.rssMb > peak.rssMb) peak = stats;
    samples.push({ atMs: Math.round(performance.now() - allStarted), stats });
  }
  const after = await ask(child);
  const afterGc = await ask(child, true);
  const firstAllClosed = samples.find((sample) => sample.stats.sockets === before.sockets);
  console.log(
    JSON.stringify(
      {
        clients,
        megabytes,
        sendTimeoutMs: sendTimeout,
        clientsStartedInMs: Math.round(allStarted - started),
        before,
        peak,
        at2xSendTimeout: after,
        at2xSendTimeoutAfterGc: afterGc,
        allServerSocketsClosedAtMs: firstAllClosed?.atMs ?? null,
      },
      null,
      2,
    ),
  );
  for (const socket of sockets) socket.destroy();
  child.kill();
}

if (process.argv[2] === 'serve') await serve();
else await measure();
