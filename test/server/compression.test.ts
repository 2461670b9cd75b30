// compression() (src/middlewares/compression.ts): the coding negotiated from Accept-Encoding is
// applied when the answer is written, to plain values, Responses and streams alike; checked with
// Node's own decoders, with curl --compressed, over a socket and through app.fetch.
import { execFile } from 'node:child_process';
import http from 'node:http';
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get, HttpStatus, KilnError, compression, cors, type ContentCoding } from '@kiln/core';
import { start, type Started } from '../support/server.js';

const run = promisify(execFile);
const zstdHere = typeof (zlib as { createZstdCompress?: unknown }).createZstdCompress === 'function';
const codings: ContentCoding[] = zstdHere ? ['zstd', 'br', 'gzip'] : ['br', 'gzip'];

function decode(coding: string, bytes: Buffer): Buffer {
  if (coding === 'gzip') return zlib.gunzipSync(bytes);
  if (coding === 'br') return zlib.brotliDecompressSync(bytes);
  return (zlib as unknown as { zstdDecompressSync(b: Buffer): Buffer }).zstdDecompressSync(bytes);
}

interface Item {
  id: number;
  name: string;
  tags: string[];
}
const items: Item[] = Array.from({ length: 200 }, (_, i) => ({ id: i, name: `item number ${i}`, tags: ['a', 'b'] }));

// The stream test's source waits for the client to have its first bytes before it goes on.
let firstArrived!: () => void;
const tenMiB = 10 * 1024 * 1024;
const streamChunk = 64 * 1024;

@Controller('/c')
class CompressedController {
  @Get('/items') list(): Item[] {
    return items;
  }
  @Get('/small') small() {
    return { ok: true };
  }
  @Get('/empty') @HttpStatus(204) empty() {}
  @Get('/text') text() {
    return new Response('x'.repeat(5000), { headers: { 'content-type': 'text/plain; charset=utf-8', etag: '"v1"', vary: 'Cookie' } });
  }
  @Get('/no-transform') noTransform() {
    return new Response('x'.repeat(5000), { headers: { 'content-type': 'text/plain', 'cache-control': 'public, no-transform' } });
  }
  @Get('/encoded') encoded() {
    return new Response(zlib.gzipSync('y'.repeat(5000)), { headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip' } });
  }
  @Get('/image') image() {
    return new Response(new Uint8Array(5000), { headers: { 'content-type': 'image/png' } });
  }
  @Get('/not-modified') notModified() {
    return new Response(null, { status: 304, headers: { etag: '"v1"' } });
  }
  @Get('/stream') stream() {
    let sent = 0;
    const arrived = new Promise<void>((resolve) => (firstArrived = resolve));
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === tenMiB) return controller.close();
        // After the first chunk, the source waits until the client holds compressed bytes: the
        // test can only pass if the first chunk was compressed and sent before the stream ended.
        if (sent === streamChunk) {
          const stuck = new Promise((_, reject) =>
            setTimeout(() => reject(new Error('the first chunk never reached the client')), 10_000).unref(),
          );
          await Promise.race([arrived, stuck]);
        }
        const chunk = new Uint8Array(streamChunk);
        for (let i = 0; i < chunk.length; i++) chunk[i] = 97 + ((sent + i) % 26);
        controller.enqueue(chunk);
        sent += streamChunk;
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/plain' } });
  }
  @Get('/events') events() {
    let n = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (n === 3) return controller.close();
        await new Promise((resolve) => setTimeout(resolve, 30));
        controller.enqueue(new TextEncoder().encode(`data: event ${n++}\n\n`));
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  }
}

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function get(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .request(`${base}${path}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject)
      .end();
  });
}

let server: Started;
const reported: unknown[] = [];
const config = {
  controllers: [CompressedController],
  middlewares: [cors({ origin: ['https://app.example'] }), compression()],
  onError: (error: unknown) => void reported.push(error),
};

const Http = suite('compression over HTTP');
Http.before(async () => {
  server = await start(config);
});
Http.after(() => server.close());

async function chosen(acceptEncoding: string): Promise<string | undefined> {
  const reply = await get(server.base, '/c/items', { 'accept-encoding': acceptEncoding });
  return reply.headers['content-encoding'];
}

Http('negotiation: the highest q-value wins; equal ones go by the server order (zstd, br, gzip)', async () => {
  assert.is(await chosen('gzip, deflate, br'), 'br');
  assert.is(await chosen('gzip, deflate, br, zstd'), zstdHere ? 'zstd' : 'br');
  assert.is(await chosen('gzip;q=1, br;q=0.5'), 'gzip');
  assert.is(await chosen('x-gzip'), 'gzip');
  assert.is(await chosen('GZIP;Q=0.8'), 'gzip');
  assert.is(await chosen('zstd, gzip'), zstdHere ? 'zstd' : 'gzip');
});

Http('negotiation: q=0 refuses, * stands for the rest, identity can win', async () => {
  assert.is(await chosen('br;q=0, gzip'), 'gzip');
  assert.is(await chosen('br;q=0, gzip;q=0'), undefined);
  assert.is(await chosen('*'), zstdHere ? 'zstd' : 'br');
  assert.is(await chosen('br;q=0, *;q=0.5'), zstdHere ? 'zstd' : 'gzip');
  assert.is(await chosen('zstd;q=0, br;q=0, *'), 'gzip');
  assert.is(await chosen('*;q=0'), undefined);
  assert.is(await chosen('identity'), undefined);
  assert.is(await chosen('identity;q=1, gzip;q=0.5'), undefined);
  assert.is(await chosen('deflate'), undefined);
  assert.is(await chosen(''), undefined);
});

for (const coding of codings) {
  Http(`${coding}: a typed list is compressed and decodes to the same JSON (Node's decoder)`, async () => {
    const reply = await get(server.base, '/c/items', { 'accept-encoding': coding });
    assert.is(reply.status, 200);
    assert.is(reply.headers['content-encoding'], coding);
    assert.is(reply.headers.vary, 'Origin, Accept-Encoding');
    assert.is(reply.headers['content-type'], 'application/json; charset=utf-8');
    assert.is(Number(reply.headers['content-length']), reply.body.length);
    const plain = JSON.stringify(items);
    assert.ok(reply.body.length < plain.length / 4, `${reply.body.length} bytes for ${plain.length}`);
    assert.is(decode(coding, reply.body).toString(), plain);
  });

  Http(`${coding}: curl --compressed decodes it`, async () => {
    const { stdout } = await run('curl', ['-s', '--compressed', '-H', `accept-encoding: ${coding}`, '-D', '-', `${server.base}/c/items`]);
    const [head, body] = stdout.split('\r\n\r\n');
    assert.match(head!, new RegExp(`content-encoding: ${coding}`, 'i'));
    assert.equal(JSON.parse(body!), items);
  });

  Http(`${coding}: a 10 MiB stream is compressed chunk by chunk, the first chunk arriving before the stream ends`, async () => {
    const decoded = await new Promise<Buffer>((resolve, reject) => {
      http
        .get(`${server.base}/c/stream`, { headers: { 'accept-encoding': coding } }, (res) => {
          assert.is(res.headers['content-encoding'], coding);
          assert.is(res.headers['transfer-encoding'], 'chunked');
          const z = zlib as unknown as Record<string, () => NodeJS.ReadWriteStream>;
          const decoder: NodeJS.ReadWriteStream =
            coding === 'gzip' ? zlib.createGunzip() : coding === 'br' ? zlib.createBrotliDecompress() : z['createZstdDecompress']!();
          const out: Buffer[] = [];
          let first = true;
          decoder.on('data', (chunk: Buffer) => {
            out.push(chunk);
            // Decoded bytes before the source went on past its first chunk: it was flushed.
            if (first) {
              first = false;
              firstArrived();
            }
          });
          decoder.on('end', () => resolve(Buffer.concat(out)));
          decoder.on('error', reject);
          res.pipe(decoder);
        })
        .on('error', reject);
    });
    assert.is(decoded.length, tenMiB);
    for (const at of [0, 1, streamChunk, tenMiB - 1]) assert.is(decoded[at], 97 + (at % 26));
  });
}

Http('server-sent events are compressed and flushed event by event', async () => {
  const events = await new Promise<string[]>((resolve, reject) => {
    http.get(`${server.base}/c/events`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
      assert.is(res.headers['content-encoding'], 'gzip');
      const decoder = zlib.createGunzip();
      const seen: string[] = [];
      decoder.on('data', (chunk: Buffer) => seen.push(chunk.toString()));
      decoder.on('end', () => resolve(seen));
      decoder.on('error', reject);
      res.pipe(decoder);
    });
  });
  // Three separate decoded pieces: each event was its own flushed block.
  assert.equal(events, ['data: event 0\n\n', 'data: event 1\n\n', 'data: event 2\n\n']);
});

Http('Vary is merged into the answer’s own Vary and CORS’ Origin, and a strong ETag becomes weak', async () => {
  const reply = await get(server.base, '/c/text', { 'accept-encoding': 'gzip', origin: 'https://app.example' });
  assert.is(reply.headers['content-encoding'], 'gzip');
  assert.is(reply.headers.vary, 'Cookie, Origin, Accept-Encoding');
  assert.is(reply.headers.etag, 'W/"v1"');
  assert.is(decode('gzip', reply.body).toString(), 'x'.repeat(5000));
  const items = await get(server.base, '/c/items', { 'accept-encoding': 'br', origin: 'https://app.example' });
  assert.is(items.headers.vary, 'Origin, Accept-Encoding');
});

Http('no Accept-Encoding, identity or only refused codings: sent as it is, with Vary', async () => {
  for (const header of [undefined, 'identity', 'gzip;q=0, br;q=0', 'deflate']) {
    const reply = await get(server.base, '/c/items', header === undefined ? {} : { 'accept-encoding': header });
    assert.is(reply.headers['content-encoding'], undefined, String(header));
    assert.is(reply.headers.vary, 'Origin, Accept-Encoding');
    assert.equal(JSON.parse(reply.body.toString()), items);
  }
});

Http('under the threshold: sent as it is, with Vary', async () => {
  const reply = await get(server.base, '/c/small', { 'accept-encoding': 'gzip' });
  assert.is(reply.headers['content-encoding'], undefined);
  assert.is(reply.headers.vary, 'Origin, Accept-Encoding');
  assert.is(reply.body.toString(), '{"ok":true}');
});

Http('never compressed: no-transform, already encoded, images, HEAD, 204, 304', async () => {
  const noTransform = await get(server.base, '/c/no-transform', { 'accept-encoding': 'gzip' });
  assert.is(noTransform.headers['content-encoding'], undefined);
  // cors() varies on Origin; the answer is not compressible, so it does not vary on Accept-Encoding
  assert.is(noTransform.headers.vary, 'Origin');
  assert.is(noTransform.body.length, 5000);
  const encoded = await get(server.base, '/c/encoded', { 'accept-encoding': 'br' });
  assert.is(encoded.headers['content-encoding'], 'gzip');
  assert.is(zlib.gunzipSync(encoded.body).toString(), 'y'.repeat(5000));
  const image = await get(server.base, '/c/image', { 'accept-encoding': 'gzip' });
  assert.is(image.headers['content-encoding'], undefined);
  assert.is(image.body.length, 5000);
  const head = await get(server.base, '/c/items', { 'accept-encoding': 'gzip' }, 'HEAD');
  assert.is(head.headers['content-encoding'], undefined);
  assert.is(head.body.length, 0);
  const empty = await get(server.base, '/c/empty', { 'accept-encoding': 'gzip' });
  assert.is(empty.status, 204);
  assert.is(empty.headers['content-encoding'], undefined);
  const notModified = await get(server.base, '/c/not-modified', { 'accept-encoding': 'gzip' });
  assert.is(notModified.status, 304);
  assert.is(notModified.headers['content-encoding'], undefined);
  assert.equal(reported, []);
});

Http('app.fetch answers the same: compressed bodies and streams, Vary', async () => {
  for (const coding of codings) {
    const response = await server.app.fetch(new Request('http://localhost/c/items', { headers: { 'accept-encoding': coding } }));
    assert.is(response.headers.get('content-encoding'), coding);
    assert.is(response.headers.get('vary'), 'Origin, Accept-Encoding');
    assert.is(decode(coding, Buffer.from(await response.arrayBuffer())).toString(), JSON.stringify(items));
  }
  const events = await server.app.fetch(new Request('http://localhost/c/events', { headers: { 'accept-encoding': 'gzip' } }));
  assert.is(events.headers.get('content-encoding'), 'gzip');
  assert.is(zlib.gunzipSync(Buffer.from(await events.arrayBuffer())).toString(), 'data: event 0\n\ndata: event 1\n\ndata: event 2\n\n');
  const small = await server.app.fetch(new Request('http://localhost/c/small', { headers: { 'accept-encoding': 'gzip' } }));
  assert.is(small.headers.get('content-encoding'), null);
  assert.is(await small.text(), '{"ok":true}');
});

Http.run();

const Options = suite('compression options');

Options('invalid options are KILN012 at start-up', () => {
  for (const options of [{ threshold: -1 }, { encodings: ['deflate'] }, { encodings: [] }, { brotliQuality: 12 }, { filter: 'text' }]) {
    try {
      compression(options as never);
      assert.unreachable(JSON.stringify(options));
    } catch (error) {
      assert.instance(error, KilnError);
      assert.is((error as KilnError).code, 'KILN012');
    }
  }
  if (!zstdHere) assert.throws(() => compression({ encodings: ['zstd'] }), /zstd.*Node 22\.15/);
});

Options('threshold 0 and a custom filter', async () => {
  const app = await start({
    controllers: [CompressedController],
    middlewares: [compression({ threshold: 0, encodings: ['gzip'], filter: (type) => type.startsWith('image/') })],
  });
  try {
    const image = await get(app.base, '/c/image', { 'accept-encoding': 'gzip, br' });
    assert.is(image.headers['content-encoding'], 'gzip');
    assert.is(zlib.gunzipSync(image.body).length, 5000);
    const small = await get(app.base, '/c/small', { 'accept-encoding': 'gzip' });
    assert.is(small.headers['content-encoding'], undefined);
  } finally {
    await app.close();
  }
});

Options.run();
