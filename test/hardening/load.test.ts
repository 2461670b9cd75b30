// A bounded load test on loopback: 50 keep-alive connections for LOAD_SECONDS (default 5, at
// most 20) of mixed valid and invalid requests against a server in a child process. It asserts
// zero 5xx and zero server-side errors, and prints the server's RSS at start and end.
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get, Post, HttpError, compiledBinder, createServer, type KilnRequest } from '@kiln/core';

@Controller('/load')
class LoadController {
  @Get('/users/:id')
  @compiledBinder((req: KilnRequest) => [Number(req.params.id), req.query.tags])
  get(id: number, tags: unknown) {
    if (Number.isNaN(id)) throw new HttpError(400, 'id must be a number');
    return { id, tags };
  }
  @Post('/echo') @compiledBinder(async (req: KilnRequest) => [await req.parseBody()]) echo(body: unknown) {
    return { body };
  }
}

interface ServerMessage {
  port?: number;
  rss?: number;
  errors?: number;
}

async function serve() {
  let errors = 0;
  const app = createServer({
    controllers: [LoadController],
    maxBodySize: 4096,
    onError: () => {
      errors++;
    },
  });
  const { port } = await app.listen(0, '127.0.0.1');
  process.send!({ port, rss: process.memoryUsage().rss } satisfies ServerMessage);
  process.on('message', async (message) => {
    if (message === 'report') process.send!({ rss: process.memoryUsage().rss, errors } satisfies ServerMessage);
    if (message === 'stop') {
      await app.close();
      process.exit(0);
    }
  });
}

if (process.env.KILN_LOAD_SERVER === '1') {
  serve().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
} else {
  const Load = suite('load');
  let child: ChildProcess;
  const ask = (message: string) =>
    new Promise<ServerMessage>((resolve) => {
      child.once('message', resolve);
      child.send(message);
    });

  Load('mixed valid and invalid traffic on 50 connections: no 5xx, no server-side error', async () => {
    child = fork(fileURLToPath(import.meta.url), { env: { ...process.env, KILN_LOAD_SERVER: '1' } });
    const ready = await new Promise<ServerMessage>((resolve) => child.once('message', resolve));
    const seconds = Math.min(20, Number(process.env.LOAD_SECONDS ?? 5));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 50 });
    const mix: { method: string; path: string; body?: string; type?: string }[] = [
      { method: 'GET', path: '/load/users/42?tags=a&tags=b' },
      { method: 'GET', path: '/load/users/abc' },
      { method: 'GET', path: '/load/users/1?tags=%E0%A4%A' },
      { method: 'GET', path: '/nowhere' },
      { method: 'DELETE', path: '/load/users/1' },
      { method: 'POST', path: '/load/echo', body: '{"ok":true}', type: 'application/json' },
      { method: 'POST', path: '/load/echo', body: '{"broken":', type: 'application/json' },
      { method: 'POST', path: '/load/echo', body: 'x'.repeat(8192), type: 'text/plain' },
      { method: 'POST', path: '/load/echo', body: 'bin', type: 'application/octet-stream' },
    ];
    const statuses: Record<number, number> = {};
    let failures = 0;
    let sent = 0;
    const deadline = Date.now() + seconds * 1000;
    const send = (item: (typeof mix)[number]) =>
      new Promise<void>((resolve) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port: ready.port,
            method: item.method,
            path: item.path,
            agent,
            headers: item.body === undefined ? {} : { 'content-type': item.type!, 'content-length': Buffer.byteLength(item.body) },
          },
          (res) => {
            statuses[res.statusCode!] = (statuses[res.statusCode!] ?? 0) + 1;
            res.resume();
            res.on('end', resolve);
          },
        );
        req.on('error', () => {
          failures++;
          resolve();
        });
        req.end(item.body);
      });
    await Promise.all(
      Array.from({ length: 50 }, async (_, worker) => {
        for (let i = worker; Date.now() < deadline; i++) {
          sent++;
          await send(mix[i % mix.length]!);
        }
      }),
    );
    agent.destroy();
    const end = await ask('report');
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.send('stop');
    await exited;
    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    console.log(
      `load: ${sent} requests in ${seconds} s, statuses ${JSON.stringify(statuses)}, client errors ${failures}, server RSS ${mb(ready.rss!)} MB at start, ${mb(end.rss!)} MB at end`,
    );
    const fiveHundreds = Object.entries(statuses).filter(([status]) => Number(status) >= 500);
    assert.equal(fiveHundreds, [], 'no 5xx');
    assert.is(end.errors, 0, 'no server-side error');
    assert.ok(
      statuses[200]! > 0 && statuses[400]! > 0 && statuses[404]! > 0 && statuses[405]! > 0 && statuses[413]! > 0 && statuses[415]! > 0,
    );
  });

  Load.run();
}
