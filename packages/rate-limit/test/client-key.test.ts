import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get, type KilnConfig, type TrustProxy } from '@kiln/core';
import { addressKey, rateLimit, type RateLimitOptions, type RateLimitStore } from '@kiln/rate-limit';
import { get, getInProcess, start } from './support/server.js';

@Controller('/')
class Api {
  @Get('/ping') ping() {
    return { ok: true };
  }
}

function serve(options: RateLimitOptions, trustProxy?: TrustProxy) {
  const config: KilnConfig = { controllers: [Api], middlewares: [rateLimit(options)] };
  if (trustProxy !== undefined) config.trustProxy = trustProxy;
  return start(config);
}

/** A store that records the keys it is asked about and counts nothing. */
function keySpy(): { store: RateLimitStore; keys: string[] } {
  const keys: string[] = [];
  return {
    keys,
    store: {
      increment(key) {
        keys.push(key);
        return 1;
      },
      reset() {},
    },
  };
}

/** Statuses of requests sent one after another, each with its own headers. */
async function statuses(base: string, headers: Record<string, string>[]): Promise<number[]> {
  const result: number[] = [];
  for (const h of headers) result.push((await get(base, '/ping', h)).status);
  return result;
}

const forged = (n: number, extra?: string) =>
  Array.from({ length: n }, (_, i) => ({ 'x-forwarded-for': extra === undefined ? `198.18.0.${i + 1}` : `198.18.0.${i + 1}, ${extra}` }));

test("one trust setting: with the server's trustProxy false, a fresh X-Forwarded-For per request does not escape max", async () => {
  const s = await serve({ max: 2, windowMs: 60_000 }, false);
  assert.equal(await statuses(s.base, forged(5)), [200, 200, 429, 429, 429]);
  const still = await get(s.base, '/ping');
  assert.equal([still.status, still.json().error], [429, 'Too Many Requests'], 'the server still serves');
  await s.close();
});

test('proxies that append (trustProxy: 1): the client is the right-most entry, forged left entries never count', async () => {
  // 30 requests, each with a new forged first entry, through one proxy that appended the real client 203.0.113.7
  const s = await serve({ max: 5, windowMs: 60_000 }, 1);
  const result = await statuses(s.base, forged(30, '203.0.113.7'));
  assert.equal([result.filter((x) => x === 200).length, result.filter((x) => x === 429).length], [5, 25]);
  assert.is((await get(s.base, '/ping', { 'x-forwarded-for': '203.0.113.8' })).status, 200, 'another client has its own counter');
  await s.close();
});

test('proxies that append (trustProxy: an address list): the right-most untrusted entry is the key', async () => {
  const spy = keySpy();
  const s = await serve({ store: spy.store }, ['loopback', '10.0.0.0/8']);
  await statuses(s.base, [
    { 'x-forwarded-for': '1.1.1.1, 203.0.113.7, 10.0.0.9' },
    { 'x-forwarded-for': '9.9.9.9, 203.0.113.7' },
    { 'x-forwarded-for': 'not-an-ip, 10.0.0.9' },
  ]);
  assert.equal(spy.keys, ['203.0.113.7', '203.0.113.7', '10.0.0.9']);
  await s.close();
});

test("the spec's rule (trustProxy true, the default) keys on the first entry: what a client forges counts", async () => {
  const s = await serve({ max: 2, windowMs: 60_000 });
  assert.equal(await statuses(s.base, forged(4)), [200, 200, 200, 200], 'documented as unsafe without an overwriting proxy');
  await s.close();
});

test('seven spellings of one IPv6 address are one key', async () => {
  const s = await serve({ max: 3, windowMs: 60_000, ipv6Subnet: false });
  const spellings = [
    '2001:db8::1',
    '2001:DB8::1',
    '2001:db8:0:0:0:0:0:1',
    '2001:0db8::0001',
    '[2001:db8::1]',
    '[2001:db8::1]:443',
    '2001:db8::1%eth0',
  ];
  const result = await statuses(
    s.base,
    spellings.map((address) => ({ 'x-forwarded-for': address })),
  );
  assert.equal(result, [200, 200, 200, 429, 429, 429, 429]);
  await s.close();
});

test('IPv4-mapped IPv6 and IPv4 with a port are the IPv4 key', async () => {
  const spy = keySpy();
  const s = await serve({ store: spy.store });
  await statuses(s.base, [
    { 'x-forwarded-for': '::ffff:203.0.113.7' },
    { 'x-forwarded-for': '[::ffff:cb00:7107]:80' },
    { 'x-forwarded-for': '203.0.113.7:51234' },
  ]);
  assert.equal(spy.keys, ['203.0.113.7', '203.0.113.7', '203.0.113.7']);
  await s.close();
});

test('ipv6Subnet (default 56): 40 addresses of one /64 are one key; another /56 is another key', async () => {
  const s = await serve({ max: 5, windowMs: 60_000 });
  const inOne64 = Array.from({ length: 40 }, (_, i) => ({ 'x-forwarded-for': `2001:db8:1234:5678::${(i + 1).toString(16)}` }));
  const result = await statuses(s.base, inOne64);
  assert.equal([result.filter((x) => x === 200).length, result.filter((x) => x === 429).length], [5, 35]);
  assert.is((await get(s.base, '/ping', { 'x-forwarded-for': '2001:db8:1234:56ff::1' })).status, 429, 'same /56');
  assert.is((await get(s.base, '/ping', { 'x-forwarded-for': '2001:db8:1234:5700::1' })).status, 200, 'the next /56');
  await s.close();
});

test('ipv6Subnet: the key names the network; 64 and false narrow it', async () => {
  for (const [subnet, expected] of [
    [undefined, '2001:db8:1234:5600::/56'],
    [64, '2001:db8:1234:5678::/64'],
    [false, '2001:db8:1234:5678::9'],
  ] as const) {
    const spy = keySpy();
    const s = await serve(subnet === undefined ? { store: spy.store } : { store: spy.store, ipv6Subnet: subnet });
    await get(s.base, '/ping', { 'x-forwarded-for': '2001:DB8:1234:5678:0::9' });
    assert.equal(spy.keys, [expected], String(subnet));
    await s.close();
  }
  assert.is(addressKey('2001:db8:1234:5678::9'), '2001:db8:1234:5600::/56');
  assert.is(addressKey('2001:db8::1', 48), '2001:db8::/48');
  assert.is(addressKey('203.0.113.7', 56), '203.0.113.7');
});

test('a header entry that is not an address is never a key: garbage falls back to the socket address', async () => {
  const spy = keySpy();
  const s = await serve({ store: spy.store });
  await statuses(s.base, [
    { 'x-forwarded-for': 'x'.repeat(15_000) },
    { 'x-forwarded-for': 'unknown', 'x-real-ip': '<script>' },
    { 'x-forwarded-for': '203.0.113.7<' },
  ]);
  assert.equal(spy.keys, ['127.0.0.1', '127.0.0.1', '127.0.0.1']);
  await s.close();
});

test('key length is capped: a 15 KB key from a keyGenerator is stored as a 50-character digest, distinct keys stay distinct', async () => {
  const spy = keySpy();
  const s = await serve({ store: spy.store, keyGenerator: (req) => req.headers.get('x-api-key') ?? 'none' });
  await statuses(s.base, [
    { 'x-api-key': 'a'.repeat(15_000) },
    { 'x-api-key': 'a'.repeat(15_000) },
    { 'x-api-key': 'b'.repeat(15_000) },
    { 'x-api-key': 'k'.repeat(256) },
  ]);
  const [a1, a2, b, short] = spy.keys as [string, string, string, string];
  assert.match(a1, /^sha256:[A-Za-z0-9_-]{43}$/);
  assert.equal([a1.length, a1 === a2, a1 === b, short], [50, true, false, 'k'.repeat(256)]);
  await s.close();
});

test("in process without any address: a hash of User-Agent + Accept-Language; a forged header with the server's trustProxy false is ignored", async () => {
  const spy = keySpy();
  const s = await serve({ store: spy.store }, false);
  await getInProcess(s.app, '/ping', { 'user-agent': 'curl/8', 'x-forwarded-for': '203.0.113.7' });
  await getInProcess(s.app, '/ping', { 'user-agent': 'curl/8', 'x-forwarded-for': '203.0.113.8' });
  assert.match(spy.keys[0]!, /^fp:[0-9a-z]+$/);
  assert.is(spy.keys[1], spy.keys[0]);
  await s.close();
});

test.run();
