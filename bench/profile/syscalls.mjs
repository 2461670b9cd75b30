#!/usr/bin/env node
// The system calls and bytes per answer of each route of the mixed traffic (m), per server:
//   node bench/profile/syscalls.mjs [seconds] <name>=<server script> ...
// e.g. `raw=bench/http/servers/raw-node.mjs kiln=bench/build/kiln/http/servers/kiln/server.js`.
// Each server is started pinned, then each route is loaded alone (wrk, 64 connections) while
// `strace -f` records the server's calls (`-s 0`: lengths only). Per answer: every system call
// (read, writev, write...), how many writes and how many iovecs each write carries, the bytes
// written, and the answer's head and total bytes (from one keep-alive exchange). Prints a markdown table.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { mixedRequests, mixedRequestsGlobalResponse } from '../http/mixed-traffic.mjs';
import { startServer } from '../http/server-process.mjs';
import { load } from '../http/load-generator.mjs';

const args = process.argv.slice(2);
const seconds = /^\d+$/.test(args[0] ?? '') ? Number(args.shift()) : 3;
const servers = args.map((pair) => {
  const [name, script] = pair.split('=');
  return { name, script: resolve(script) };
});
if (servers.length === 0) throw new Error('usage: syscalls.mjs [seconds] <name>=<script> ...');

const routes = [...mixedRequests, mixedRequestsGlobalResponse.find((entry) => entry.request.path === '/report-web.csv')];

/** One keep-alive HTTP/1.1 exchange, as wrk makes it: the answer's head bytes and its total bytes. */
function rawAnswer(port, { method, path, headers, body }) {
  return new Promise((resolvePromise, reject) => {
    const socket = connect(port, '127.0.0.1');
    const lines = [`${method} ${path} HTTP/1.1`, 'host: 127.0.0.1'];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    if (body !== undefined) lines.push(`content-length: ${Buffer.byteLength(body)}`);
    socket.write(`${lines.join('\r\n')}\r\n\r\n${body ?? ''}`);
    let received = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      const head = received.indexOf('\r\n\r\n') + 4;
      if (head < 4) return;
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(received.subarray(0, head).toString('latin1'))?.[1] ?? 0);
      if (received.length < head + length) return;
      socket.destroy();
      resolvePromise({ head, total: received.length });
    });
    socket.on('error', reject);
  });
}

/** Counts the calls of an `strace -f -o` file: by name, and the writes' iovecs and bytes. */
function countCalls(file) {
  const calls = new Map();
  let writes = 0;
  let iovecs = 0;
  let written = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    // `1234  writev(21, [{iov_base=..., iov_len=169}, ...], 2) = 187`; resumed calls carry the result
    const match = /^\d+\s+(?:<\.\.\. )?(\w+)(?:\(| resumed>)/.exec(line);
    if (!match || line.includes('<unfinished ...>')) continue;
    const name = match[1];
    if (name === 'futex' || name === 'epoll_pwait' || name === 'epoll_wait') continue;
    calls.set(name, (calls.get(name) ?? 0) + 1);
    const result = Number(/= (-?\d+)/.exec(line)?.[1]);
    if ((name === 'writev' || name === 'write') && result > 0) {
      writes++;
      written += result;
      iovecs += name === 'writev' ? Number(/\], (\d+)\)/.exec(line)?.[1] ?? 1) : 1;
    }
  }
  return { calls, writes, iovecs, written };
}

const rows = [];
for (const server of servers) {
  const port = 22_000 + Math.floor(Math.random() * 20_000);
  const running = await startServer(server, port);
  try {
    for (const route of routes) {
      const { request } = route;
      const answer = await rawAnswer(port, request);
      // As a one-route rotation, so that wrk sends it from a script (its method, headers and body).
      const scenario = { id: `sys-${rows.length}`, mixed: [route] };
      await load(port, scenario, 1);
      const traceFile = join(tmpdir(), `kiln-strace-${process.pid}-${rows.length}.txt`);
      const tracer = spawn('strace', ['-f', '-qq', '-s', '0', '-o', traceFile, '-p', String(running.pid)], { stdio: 'ignore' });
      await sleep(500);
      const result = await load(port, scenario, seconds);
      if (result.errors > 0) throw new Error(`${server.name} ${request.method} ${request.path}: ${result.errors} bad answers`);
      tracer.kill('SIGINT');
      await new Promise((done) => tracer.once('exit', done));
      const { calls, writes, iovecs, written } = countCalls(traceFile);
      rmSync(traceFile, { force: true });
      // The trace covers the measured load only (attached half a second before, idle till then).
      const answers = result.requests;
      const perAnswer = (n) => (n / answers).toFixed(2);
      rows.push({
        server: server.name,
        route: `${request.method} ${request.path.split('?')[0]}`,
        head: answer.head,
        answerBytes: answer.total,
        bytes: (written / answers).toFixed(0),
        syscalls: [...calls.entries()]
          .sort((a, b) => b[1] - a[1])
          .filter(([, n]) => n / answers >= 0.01)
          .map(([name, n]) => `${perAnswer(n)} ${name}`)
          .join(', '),
        iovecs: (iovecs / writes).toFixed(2),
        writesPerAnswer: perAnswer(writes),
      });
      console.error(`${server.name} ${request.method} ${request.path}: ${rows.at(-1).syscalls}`);
    }
  } finally {
    await running.stop();
  }
}

console.log(
  '| server | route | head bytes | answer bytes | bytes written per answer | writes per answer | iovecs per write | system calls per answer |',
);
console.log('|---|---|---:|---:|---:|---:|---:|---|');
for (const row of rows)
  console.log(
    `| ${row.server} | \`${row.route}\` | ${row.head} | ${row.answerBytes} | ${row.bytes} | ${row.writesPerAnswer} | ${row.iovecs} | ${row.syscalls} |`,
  );
