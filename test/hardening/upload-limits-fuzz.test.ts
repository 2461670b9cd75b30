// Property test of the multipart limits and the staged close together: random bodies of fields and
// files around every limit, sent in random pieces by a client that keeps sending to the end of
// what it declared. Each answer is 200 with every part in the order sent, or a 413 naming a part
// that passes a limit, mid-part; the client reads it whole (no reset), and no temporary file is left.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Post, compiledBinder, type KilnRequest } from '@kiln/core';
import { start, type Started } from '../support/server.js';
import { sendToTheEnd } from './support/send-to-the-end.js';

@Controller('/u')
class PartsController {
  @Post('/parts')
  @compiledBinder(async (req: KilnRequest) => [await req.parseBody()])
  parts(form: FormData) {
    return [...form].map(([name, value]) => [
      name,
      typeof value === 'string' ? 'field' : 'file',
      typeof value === 'string' ? value.length : value.size,
    ]);
  }
}

const limits = { maxFileSize: 100_000, maxFieldSize: 8_000, maxFiles: 3, maxFields: 3, memoryFileSize: 16_000 };

interface Part {
  kind: 'field' | 'file';
  size: number;
}

const around = (limit: number) => fc.oneof(fc.constantFrom(0, 1, limit - 1, limit, limit + 1), fc.integer({ min: 0, max: limit * 2 }));
const part: fc.Arbitrary<Part> = fc.oneof(
  around(limits.maxFieldSize).map((size) => ({ kind: 'field' as const, size })),
  around(limits.maxFileSize).map((size) => ({ kind: 'file' as const, size })),
);

/**
 * What the server may answer: 200 with every part in order when no part passes a limit, else a 413
 * naming one of the parts that do (a part's bytes may still sit in an earlier part's buffer when a
 * later one passes its limit, so which of them is named is not fixed).
 */
function allowed(parts: Part[]): { status: number; body: unknown }[] {
  let files = 0;
  let fields = 0;
  const refusals: { status: number; body: unknown }[] = [];
  for (const [i, { kind, size }] of parts.entries()) {
    if (kind === 'field') {
      if (++fields > limits.maxFields) refusals.push(tooLarge(`More than ${limits.maxFields} fields (uploads.maxFields)`));
      else if (size > limits.maxFieldSize)
        refusals.push(tooLarge(`Field 'f${i}' is larger than the limit of ${limits.maxFieldSize} bytes (uploads.maxFieldSize)`));
    } else {
      if (++files > limits.maxFiles) refusals.push(tooLarge(`More than ${limits.maxFiles} files (uploads.maxFiles)`));
      else if (size > limits.maxFileSize)
        refusals.push(tooLarge(`File 'files' is larger than the limit of ${limits.maxFileSize} bytes (uploads.maxFileSize)`));
    }
  }
  if (refusals.length > 0) return refusals;
  return [{ status: 200, body: parts.map(({ kind, size }, i) => [kind === 'field' ? `f${i}` : 'files', kind, size]) }];
}

function tooLarge(message: string): { status: number; body: unknown } {
  return { status: 413, body: { error: 'Payload Too Large', message } };
}

function multipartBody(parts: Part[]): Buffer {
  const boundary = 'fuzz-boundary';
  const pieces: Buffer[] = [];
  for (const [i, { kind, size }] of parts.entries()) {
    const disposition =
      kind === 'field'
        ? `Content-Disposition: form-data; name="f${i}"`
        : `Content-Disposition: form-data; name="files"; filename="p${i}.bin"\r\nContent-Type: application/octet-stream`;
    pieces.push(
      Buffer.from(`--${boundary}\r\n${disposition}\r\n\r\n`),
      Buffer.alloc(size, kind === 'field' ? 'x' : 7),
      Buffer.from('\r\n'),
    );
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(pieces);
}

/** Sends the whole body in pieces of `piece` bytes whatever comes back, then reads to the server's close. */
async function keepSending(port: number, body: Buffer, piece: number): Promise<{ reset: boolean; status: number; body: unknown }> {
  const head =
    'POST /u/parts HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=fuzz-boundary\r\n' +
    `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
  // The request may be served (a 200): its own FIN only once the server's came.
  const { failed, received } = await sendToTheEnd(port, head, body, { piece, finAfterServer: true });
  const text = received.toString('utf8');
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(text)?.[1] ?? 0);
  const payload = text.slice(text.indexOf('\r\n\r\n') + 4);
  let parsed: unknown;
  let reset = failed;
  try {
    parsed = JSON.parse(payload);
  } catch {
    reset = true; // an answer cut short
  }
  return { reset, status, body: parsed };
}

const Fuzz = suite('multipart limits mid-part, and the staged close');
const tmp = mkdtempSync(join(tmpdir(), 'kiln-upload-fuzz-'));
let server: Started;

Fuzz.before(async () => {
  server = await start({ controllers: [PartsController], uploads: { ...limits, tmpDir: tmp } });
});
Fuzz.after(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
});

Fuzz(
  '150 random bodies around every limit: 200 in order, or a 413 naming a part past its limit; read whole, never reset; no file left',
  async () => {
    const port = Number(new URL(server.base).port);
    let resets = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(part, { minLength: 1, maxLength: 6 }), fc.integer({ min: 512, max: 40_000 }), async (parts, piece) => {
        const reply = await keepSending(port, multipartBody(parts), piece);
        if (reply.reset) resets++;
        const answers = allowed(parts);
        if (answers[0]!.status === 413) refused++;
        const got = JSON.stringify({ status: reply.status, body: reply.body });
        assert.ok(
          answers.some((answer) => JSON.stringify(answer) === got),
          `${JSON.stringify(parts)}: got ${got.slice(0, 200)}, expected one of ${JSON.stringify(answers).slice(0, 400)}`,
        );
        assert.is(reply.reset, false);
      }),
      { seed: 20261127, numRuns: 150 },
    );
    assert.is(resets, 0);
    assert.ok(refused > 30, `enough bodies pass a limit (${refused})`);
    for (let i = 0; i < 40 && readdirSync(tmp).length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(readdirSync(tmp), [], 'no temporary file left');
  },
);

Fuzz.run();
