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
  /** JS heap + memory outside it (Buffers, strings handed to the socket) as Node counts it. */
  heapAndExternalMb: number;
  rssAfterGcMb?: number;
  heapAndExternalAfterGcMb?: number;
}

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

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
  const usage = process.memoryUsage();
  const stats: Stats = {
    sockets: process.getActiveResourcesInfo().filter((kind) => kind === 'TCPSocketWrap').length,
    rssMb: mb(usage.rss),
    heapAndExternalMb: mb(usage.heapUsed + usage.external),
  };
  if (gc) {
    (globalThis as { gc?: () => void }).gc?.();
    const collected = process.memoryUsage();
    stats.rssAfterGcMb = mb(collected.rss);
    stats.heapAndExternalAfterGcMb = mb(collected.heapUsed + collected.external);
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
  let mostSockets = peak.sockets;
  const samples: { atMs: number; stats: Stats }[] = [];
  while (performance.now() - allStarted < 2 * sendTimeout) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const stats = await ask(child);
    if (stats.rssMb > peak.rssMb) peak = stats;
    mostSockets = Math.max(mostSockets, stats.sockets);
    samples.push({ atMs: Math.round(performance.now() - allStarted), stats });
  }
  const after = await ask(child);
  // Clients start one after another (each answer is 20 MB of JSON to serialise), so the last one's
  // deadline ends after the first ones': sample on until every socket is closed (at most 10 × sendTimeout).
  while (samples.at(-1)!.stats.sockets > before.sockets && performance.now() - allStarted < 10 * sendTimeout) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    samples.push({ atMs: Math.round(performance.now() - allStarted), stats: await ask(child) });
  }
  const settled = samples.at(-1)!.stats;
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
        mostOpenSockets: mostSockets,
        at2xSendTimeout: after,
        whenAllClosed: settled,
        thenAfterGc: afterGc,
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
