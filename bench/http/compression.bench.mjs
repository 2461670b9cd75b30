// What compression() costs on route (e), the typed list of 100 users (about 7 KB of JSON), per
// encoding: Kiln without the middleware, then with it for a client that sends no Accept-Encoding
// (the middleware runs, nothing is compressed), gzip, Brotli and zstd (where node:zlib has it).
// Each round measures every variant once, in turn; the ratios are per round, then the median.
import http from 'node:http';
import zlib from 'node:zlib';
import { load } from './load-generator.mjs';
import { startServer } from './server-process.mjs';
import { servers } from './servers.mjs';
import { median } from '../report/statistics.mjs';

const kiln = servers.find((server) => server.name === 'Kiln');
const path = '/users';

const variants = [
  { id: 'off', title: 'no compression()', compression: false, headers: {} },
  { id: 'identity', title: 'compression(), no Accept-Encoding', compression: true, headers: {} },
  { id: 'gzip', title: 'compression(), gzip (level 6)', compression: true, headers: { 'accept-encoding': 'gzip' } },
  { id: 'br', title: 'compression(), br (quality 4)', compression: true, headers: { 'accept-encoding': 'br' } },
];
if (typeof zlib.createZstdCompress === 'function')
  variants.push({ id: 'zstd', title: 'compression(), zstd (level 3)', compression: true, headers: { 'accept-encoding': 'zstd' } });

/** Bytes on the wire and the decoded body's check, before anything is timed. */
function check(port, variant) {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers: variant.headers }, (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const coding = res.headers['content-encoding'];
          const expected = variant.headers['accept-encoding'];
          if (coding !== expected) return reject(new Error(`${variant.title}: content-encoding ${coding}, expected ${expected}`));
          const decoded =
            coding === 'gzip'
              ? zlib.gunzipSync(body)
              : coding === 'br'
                ? zlib.brotliDecompressSync(body)
                : coding === 'zstd'
                  ? zlib.zstdDecompressSync(body)
                  : body;
          const users = JSON.parse(decoded.toString());
          if (!Array.isArray(users) || users.length !== 100) return reject(new Error(`${variant.title}: not the list of 100 users`));
          resolve({ wireBytes: body.length, jsonBytes: decoded.length });
        });
      })
      .on('error', reject);
  });
}

export async function runCompression({ rounds = 3, seconds = 5, warmupSeconds = 2 } = {}) {
  const ports = { off: 4601, on: 4602 };
  const plain = await startServer(kiln, ports.off, { probe: { path, headers: {} } });
  const compressed = await startServer(kiln, ports.on, { probe: { path, headers: {} }, extraArgs: ['--compression'] });
  const portOf = (variant) => (variant.compression ? ports.on : ports.off);
  const results = {};
  try {
    for (const variant of variants) {
      results[variant.id] = { title: variant.title, ...(await check(portOf(variant), variant)), rounds: [] };
      const scenario = { id: `compression-${variant.id}`, request: { method: 'GET', path, headers: variant.headers } };
      await load(portOf(variant), scenario, warmupSeconds);
    }
    for (let round = 0; round < rounds; round++) {
      for (const variant of variants) {
        const scenario = { id: `compression-${variant.id}`, request: { method: 'GET', path, headers: variant.headers } };
        const measured = await load(portOf(variant), scenario, seconds);
        if (measured.errors > 0) throw new Error(`${variant.title}: ${measured.errors} bad answers`);
        results[variant.id].rounds.push(measured.rps);
        console.log(`  round ${round + 1} ${variant.title}: ${Math.round(measured.rps)} req/s`);
      }
    }
  } finally {
    await plain.stop();
    await compressed.stop();
  }
  for (const variant of variants) {
    const row = results[variant.id];
    row.rps = median(row.rounds);
    row.ratioToOff = median(row.rounds.map((rps, i) => rps / results.off.rounds[i]));
  }
  return { path, node: process.versions.node, variants: results };
}

/** The part's table, for the console and bench/results/latest.md. */
export function compressionMarkdown(result) {
  const lines = [
    `Route (e) \`GET ${result.path}\`, Kiln on Node ${result.node}; "× off" is the median of the per-round ratios to the same server without compression().`,
    '',
    '| variant | req/s (median) | × off | bytes on the wire | JSON bytes |',
    '|---|---|---|---|---|',
  ];
  for (const row of Object.values(result.variants)) {
    lines.push(`| ${row.title} | ${Math.round(row.rps)} | ${row.ratioToOff.toFixed(2)} | ${row.wireBytes} | ${row.jsonBytes} |`);
  }
  return lines.join('\n');
}
