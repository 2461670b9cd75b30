// Forged client addresses: a client with no proxy in front writes X-Forwarded-For and X-Real-IP
// itself (random lists of addresses, ports, brackets, zones, garbage, 100 entries). Whatever it
// sends, the server answers 200, `req.ip` is a canonical address, and the rate limiter keyed on it
// cannot be escaped where `trustProxy` says the headers are not the client's to write.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Post, canonicalAddress, compiledBinder, type KilnConfig } from '@kiln/core';
import { rateLimit } from '@kiln/rate-limit';
import { servedFromPeer } from '../support/peer.js';
import { raw } from '../support/raw.js';
import { start, type Started } from '../support/server.js';
import { WhoAmI } from '../support/who-am-i.js';
import { seededRandom } from './support/seeded-random.js';

/** The Getting started page's limited route: `POST /notes`, 3 per minute per client. */
@Controller('/notes')
class NotesController {
  @Post('/', rateLimit({ max: 3, windowMs: 60_000 }))
  @compiledBinder(() => [])
  create() {
    return { id: 1 };
  }
}

const entries = [
  '203.0.113.9',
  ' 198.51.100.4 ',
  '10.0.0.1',
  '127.0.0.1',
  '1.2.3.4:8080',
  '[2001:db8::1]:443',
  '2001:DB8:0:0:0:0:0:1',
  'fe80::1%eth0',
  '::ffff:192.0.2.1',
  '::1',
  'unknown',
  '',
  ' ',
  '256.1.1.1',
  '1.2.3.4.5',
  '01.2.3.4',
  '__proto__',
  'constructor',
  '%00',
  'a'.repeat(300),
  '1.1.1.1;2.2.2.2',
  '"1.2.3.4"',
];

function forgedList(next: () => number): string {
  const count = next() < 0.1 ? 100 : 1 + Math.floor(next() * 6);
  return Array.from({ length: count }, () => entries[Math.floor(next() * entries.length)]!).join(next() < 0.5 ? ',' : ', ');
}

function ipRequest(forwardedFor: string, realIp: string | undefined): string {
  const headers = [`X-Forwarded-For: ${forwardedFor}`];
  if (realIp !== undefined) headers.push(`X-Real-IP: ${realIp}`);
  return `GET /ip HTTP/1.1\r\nHost: x\r\n${headers.join('\r\n')}\r\nConnection: close\r\n\r\n`;
}

/** Sends one forged request; returns its status and the `ip` the server saw. */
async function ipOf(port: number, forwardedFor: string, realIp?: string): Promise<{ status: number; ip: string | null }> {
  const reply = await raw(port, ipRequest(forwardedFor, realIp));
  const status = reply.statuses[0] ?? 0;
  const body = reply.text.slice(reply.text.indexOf('\r\n\r\n') + 4);
  return { status, ip: status === 200 ? (JSON.parse(body) as { ip: string | null }).ip : null };
}

const Forged = suite('forged proxy headers');
let servers: Started[] = [];

async function serve(config: Omit<KilnConfig, 'controllers'>): Promise<number> {
  const started = await start({ controllers: [WhoAmI], ...config });
  servers.push(started);
  return Number(new URL(started.base).port);
}

Forged.after.each(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

Forged('trustProxy false: 300 forged header sets, req.ip is always the socket address', async () => {
  const port = await serve({ trustProxy: false });
  const next = seededRandom(17);
  for (let i = 0; i < 300; i++) {
    const forged = forgedList(next);
    const seen = await ipOf(port, forged, entries[Math.floor(next() * entries.length)]);
    assert.equal(seen, { status: 200, ip: '127.0.0.1' }, `X-Forwarded-For: ${forged}`);
  }
});

Forged('one trusted hop: 300 forged lists, req.ip is what the nearest proxy appended, never a left entry', async () => {
  const port = await serve({ trustProxy: 1 });
  const next = seededRandom(23);
  for (let i = 0; i < 300; i++) {
    // The proxy in front appends the address it saw as the right-most entry; all the rest is the client's.
    const appended = next() < 0.5 ? '198.51.100.77' : '2001:db8::77';
    const forged = `${forgedList(next)}, ${appended}`;
    const seen = await ipOf(port, forged);
    assert.equal(seen, { status: 200, ip: appended }, `X-Forwarded-For: ${forged}`);
  }
});

Forged('the default (first entry): 300 forged lists, req.ip is always a canonical address or the socket', async () => {
  const port = await serve({});
  const next = seededRandom(29);
  for (let i = 0; i < 300; i++) {
    const forged = forgedList(next);
    const seen = await ipOf(port, forged, next() < 0.5 ? entries[Math.floor(next() * entries.length)] : undefined);
    assert.is(seen.status, 200, `X-Forwarded-For: ${forged}`);
    assert.type(seen.ip, 'string');
    assert.is(canonicalAddress(seen.ip!), seen.ip, `X-Forwarded-For: ${forged} gave a non-canonical ${seen.ip}`);
    assert.ok(seen.ip!.length <= 45, 'an address is at most 45 characters');
  }
});

Forged(
  'the rate limiter keyed on req.ip: 120 forged requests against max 40 give exactly 40 passes (trustProxy false, and one hop)',
  async () => {
    for (const trustProxy of [false, 1] as const) {
      const port = await serve({ trustProxy, middlewares: [rateLimit({ max: 40, windowMs: 60_000 })] });
      const next = seededRandom(31);
      const statuses: number[] = [];
      for (let i = 0; i < 120; i++) {
        const forged = trustProxy === false ? forgedList(next) : `${forgedList(next)}, 198.51.100.77`;
        statuses.push((await ipOf(port, forged)).status);
      }
      assert.is(statuses.filter((status) => status === 200).length, 40, `trustProxy ${trustProxy}: passes`);
      assert.is(statuses.filter((status) => status === 429).length, 80, `trustProxy ${trustProxy}: refusals`);
      assert.equal(statuses.slice(0, 40), Array(40).fill(200), `trustProxy ${trustProxy}: the first 40 pass`);
    }
  },
);

Forged(
  'the Getting started limiter (max 3) under the default trustProxy: six POSTs from a public peer with six invented X-Forwarded-For values give 3 passes, then 429',
  async () => {
    const server = await servedFromPeer({ controllers: [NotesController], logger: { level: 'silent' } }, '203.0.113.50');
    try {
      const statuses: number[] = [];
      for (let i = 1; i <= 6; i++) {
        const reply = await fetch(`${server.base}/notes`, {
          method: 'POST',
          headers: { 'x-forwarded-for': `198.51.100.${i}`, 'x-real-ip': `192.0.2.${i}` },
        });
        await reply.arrayBuffer();
        statuses.push(reply.status);
      }
      assert.equal(statuses, [200, 200, 200, 429, 429, 429]);
    } finally {
      await server.close();
    }
  },
);

Forged(
  'the Getting started limiter (max 3) under the default trustProxy, behind a proxy on loopback that appends (nginx): six POSTs with six invented X-Forwarded-For values before the appended client address give 3 passes, then 429',
  async () => {
    const server = await start({ controllers: [NotesController, WhoAmI], logger: { level: 'silent' } });
    try {
      const statuses: number[] = [];
      for (let i = 1; i <= 6; i++) {
        // what the proxy forwards: the client's own header, then the client address it appended
        const reply = await fetch(`${server.base}/notes`, {
          method: 'POST',
          headers: { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.61` },
        });
        await reply.arrayBuffer();
        statuses.push(reply.status);
      }
      assert.equal(statuses, [200, 200, 200, 429, 429, 429]);
      const ip = await fetch(`${server.base}/ip`, { headers: { 'x-forwarded-for': '198.51.100.1, 203.0.113.50, 10.0.0.7' } });
      assert.equal(await ip.json(), { ip: '203.0.113.50' }, 'the right-most address that is not a loopback or private-network proxy');
    } finally {
      await server.close();
    }
  },
);

Forged.run();
