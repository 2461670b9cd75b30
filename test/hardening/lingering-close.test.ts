// An early 413 while the client is still sending its body: the answer must be read, never lost to
// a reset. The server closes in stages (RFC 9112 §9.6: answer, half-close, drain, close), so a
// client that keeps sending to the end of what it declared reads the whole 413 every time.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Body, Controller, Post } from '@kiln/core';
import { start, type Started } from '../support/server.js';
import { sendToTheEnd } from './support/send-to-the-end.js';

interface Upload {
  title: string;
  file: File;
}

@Controller('/in')
class InController {
  @Post('/json') json(@Body() body: { title: string }) {
    return body;
  }

  @Post('/upload') upload(@Body() form: Upload) {
    return { title: form.title, size: form.file.size };
  }
}

interface Outcome {
  /** The socket failed (ECONNRESET, EPIPE) before the whole answer was read. */
  reset: boolean;
  status: number | undefined;
  body: string;
}

/** Sends `head`, then the body in 16 KiB pieces, ending its side as soon as it is sent; reads the answer by its content-length. */
async function sendAll(port: number, head: string, body: Buffer): Promise<Outcome> {
  const { failed, received } = await sendToTheEnd(port, head, body, { piece: 16 * 1024, finAfterServer: false });
  const text = received.toString('latin1');
  const status = /^HTTP\/1\.1 (\d{3}) /.exec(text)?.[1];
  const length = Number(/\r\ncontent-length: (\d+)\r\n/i.exec(text)?.[1] ?? -1);
  const payload = text.slice(text.indexOf('\r\n\r\n') + 4);
  // An answer cut short is as lost as a reset one.
  const reset = failed || payload.length !== length;
  return { reset, status: status === undefined ? undefined : Number(status), body: payload };
}

const Linger = suite('lingering close after an early 413');
let server: Started;
let port: number;
const maxBodySize = 64 * 1024;
const uploads = { maxFileSize: 64 * 1024, maxTotalSize: 512 * 1024 };

Linger.before(async () => {
  server = await start({ controllers: [InController], strictValidation: true, maxBodySize, uploads });
  port = Number(new URL(server.base).port);
});
Linger.after(() => server.close());

const tries = 200;
const body = Buffer.alloc(2 * 1024 * 1024, 'a');

function multipart(total: number): { head: string; body: Buffer } {
  const boundary = 'linger';
  const start = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const part = Buffer.concat([start, Buffer.alloc(total - start.length, 'b')]);
  return {
    head: `POST /in/upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${part.length}\r\n\r\n`,
    body: part,
  };
}

const cases: [string, () => { head: string; body: Buffer }, string][] = [
  [
    'a JSON body whose Content-Length is over maxBodySize (refused before a byte is read)',
    () => ({
      head: `POST /in/json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      body,
    }),
    `Request body is larger than the limit of ${maxBodySize} bytes`,
  ],
  [
    'a chunked JSON body that passes maxBodySize while it is read',
    () => {
      const chunk = Buffer.concat([Buffer.from(`${(16 * 1024).toString(16)}\r\n`), Buffer.alloc(16 * 1024, 'a'), Buffer.from('\r\n')]);
      return {
        head: 'POST /in/json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
        body: Buffer.concat([...Array(128).fill(chunk), Buffer.from('0\r\n\r\n')]),
      };
    },
    `Request body is larger than the limit of ${maxBodySize} bytes`,
  ],
  [
    'a multipart file that passes maxFileSize mid-part',
    () => multipart(480 * 1024),
    `File 'file' is larger than the limit of ${uploads.maxFileSize} bytes (uploads.maxFileSize)`,
  ],
  [
    'a multipart body whose Content-Length is over uploads.maxTotalSize',
    () => multipart(2 * 1024 * 1024),
    `Request body is larger than the limit of ${uploads.maxTotalSize} bytes`,
  ],
];

for (const [name, request, message] of cases) {
  Linger(`${name}: ${tries} clients that keep sending all read the whole 413, 0 resets`, async () => {
    const { head, body } = request();
    let resets = 0;
    for (let i = 0; i < tries; i++) {
      const outcome = await sendAll(port, head, body);
      if (outcome.reset) {
        resets++;
        continue;
      }
      assert.is(outcome.status, 413, `try ${i}`);
      assert.equal(JSON.parse(outcome.body), { error: 'Payload Too Large', message });
    }
    console.log(`${name}: ${resets} resets in ${tries} tries`);
    assert.is(resets, 0, `${resets} of ${tries} tries lost the 413 to a reset`);
  });
}

Linger.run();
