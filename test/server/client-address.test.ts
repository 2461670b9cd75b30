import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  Controller,
  Get,
  KilnError,
  canonicalAddress,
  compiledBinder,
  createServer,
  type KilnConfig,
  type KilnRequest,
  type TrustProxy,
} from '@kiln/core';
import { request, requestInProcess, start } from '../support/server.js';

@Controller('/')
class WhoAmI {
  @Get('/ip')
  @compiledBinder((req: KilnRequest) => [req])
  ip(req: KilnRequest) {
    return { ip: req.ip ?? null };
  }
}

const Canonical = suite('canonicalAddress');

Canonical('every spelling of one address gives one text; invalid text gives undefined', () => {
  const cases: [string, string | undefined][] = [
    ['203.0.113.7', '203.0.113.7'],
    [' 203.0.113.7 ', '203.0.113.7'],
    ['203.0.113.7:51234', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:cb00:7107', '203.0.113.7'],
    ['[::ffff:203.0.113.7]:443', '203.0.113.7'],
    ['2001:DB8::1', '2001:db8::1'],
    ['2001:db8:0:0:0:0:0:1', '2001:db8::1'],
    ['2001:0db8:0000::0001', '2001:db8::1'],
    ['[2001:db8::1]', '2001:db8::1'],
    ['[2001:db8::1]:8080', '2001:db8::1'],
    ['fe80::1%eth0', 'fe80::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'], // RFC 5952: the first of two equal zero runs
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'], // RFC 5952: one zero group is not compressed
    ['::', '::'],
    ['::1', '::1'],
    ['01.2.3.4', undefined], // a leading zero reads as octal elsewhere
    ['256.1.1.1', undefined],
    ['1.2.3', undefined],
    ['1:2:3:4:5:6:7:8:9', undefined],
    ['2001:db8::1::2', undefined],
    ['unknown', undefined],
    ['', undefined],
    ['[::1', undefined],
    ['203.0.113.7:http', undefined],
    ['x'.repeat(15_000), undefined],
  ];
  for (const [text, expected] of cases) assert.is(canonicalAddress(text), expected, JSON.stringify(text.slice(0, 40)));
});

const Trust = suite('trustProxy');

function codeOf(trustProxy: unknown): string | undefined {
  try {
    createServer({ controllers: [WhoAmI], trustProxy: trustProxy as TrustProxy });
  } catch (error) {
    assert.instance(error, KilnError);
    return `${(error as KilnError).code}: ${(error as KilnError).message}`;
  }
  return undefined;
}

Trust('an unusable trustProxy fails createServer with KILN070', () => {
  assert.is(codeOf(-1), 'KILN070: trustProxy: a hop count must be a whole number of proxies (0 or more), got -1');
  assert.is(codeOf(1.5), 'KILN070: trustProxy: a hop count must be a whole number of proxies (0 or more), got 1.5');
  assert.is(codeOf(['10.0.0.0/33']), "KILN070: trustProxy: '10.0.0.0/33' has an invalid prefix length (0 to 32)");
  assert.is(
    codeOf(['proxy.internal']),
    "KILN070: trustProxy: 'proxy.internal' is not an IP address or CIDR range (e.g. '10.0.0.0/8', '::1', 'loopback')",
  );
  assert.is(codeOf([10]), 'KILN070: trustProxy: every entry of the list must be a string, got number');
  assert.is(codeOf({}), 'KILN070: trustProxy must be a boolean, a hop count or a list of addresses/CIDR ranges, got object');
  for (const fine of [true, false, 0, 1, 3, '127.0.0.1', 'loopback, 10.0.0.0/8', ['::1/128', 'fc00::/7', 'uniquelocal', 'linklocal']])
    assert.is(codeOf(fine), undefined, JSON.stringify(fine));
});

/** `req.ip` over a real socket from 127.0.0.1 with these request headers. */
async function ipOver(trustProxy: TrustProxy | undefined, headers: Record<string, string>[]): Promise<(string | null)[]> {
  const config: KilnConfig = { controllers: [WhoAmI] };
  if (trustProxy !== undefined) config.trustProxy = trustProxy;
  const server = await start(config);
  try {
    const ips: (string | null)[] = [];
    for (const h of headers) ips.push((await request(server.base, '/ip', { headers: h })).json().ip);
    return ips;
  } finally {
    await server.close();
  }
}

Trust(
  'true (default, the spec): first X-Forwarded-For address, else X-Real-IP, else the socket; canonical; garbage never used',
  async () => {
    const ips = await ipOver(undefined, [
      { 'x-forwarded-for': '203.0.113.7, 10.0.0.1' },
      { 'x-forwarded-for': '[2001:DB8:0::1]:443, 10.0.0.1' },
      { 'x-forwarded-for': 'unknown, 10.0.0.1', 'x-real-ip': '::ffff:198.51.100.2' },
      { 'x-forwarded-for': 'x'.repeat(5000), 'x-real-ip': 'y'.repeat(5000) },
      {},
    ]);
    assert.equal(ips, ['203.0.113.7', '2001:db8::1', '198.51.100.2', '127.0.0.1', '127.0.0.1']);
  },
);

Trust('false: the socket address whatever the headers say', async () => {
  assert.equal(await ipOver(false, [{ 'x-forwarded-for': '203.0.113.7', 'x-real-ip': '198.51.100.2' }]), ['127.0.0.1']);
});

Trust('a hop count: the entry that many hops from the right; the forged left entries never count', async () => {
  const headers: Record<string, string>[] = [
    { 'x-forwarded-for': '1.1.1.1, 203.0.113.7' }, // client forged 1.1.1.1; our one proxy appended 203.0.113.7
    { 'x-forwarded-for': '203.0.113.7' },
    { 'x-real-ip': '198.51.100.2' }, // X-Real-IP is not read with a hop count
    { 'x-forwarded-for': '1.1.1.1, 203.0.113.7, 10.0.0.2' },
  ];
  assert.equal(await ipOver(1, headers), ['203.0.113.7', '203.0.113.7', '127.0.0.1', '10.0.0.2']);
  assert.equal(await ipOver(2, headers), ['1.1.1.1', '203.0.113.7', '127.0.0.1', '203.0.113.7']);
});

Trust('an address list: the right-most address that is not trusted; all trusted gives the left-most', async () => {
  const ips = await ipOver(
    ['loopback', '10.0.0.0/8'],
    [
      { 'x-forwarded-for': '1.1.1.1, 203.0.113.7, 10.1.2.3' },
      { 'x-forwarded-for': '10.9.9.9, 10.1.2.3' },
      { 'x-forwarded-for': '1.1.1.1, not-an-ip, 10.1.2.3' }, // garbage where the client belongs: the last trusted hop
      { 'x-forwarded-for': '2001:db8::5' },
    ],
  );
  assert.equal(ips, ['203.0.113.7', '10.9.9.9', '10.1.2.3', '2001:db8::5']);
  // the socket (127.0.0.1) itself not trusted: headers are ignored
  assert.equal(await ipOver(['10.0.0.0/8'], [{ 'x-forwarded-for': '203.0.113.7' }]), ['127.0.0.1']);
  assert.equal(await ipOver('127.0.0.1', [{ 'x-forwarded-for': '1.1.1.1, 203.0.113.7' }]), ['203.0.113.7']);
});

Trust('in process (no socket) the caller counts as a trusted hop', async () => {
  const app = createServer({ controllers: [WhoAmI], trustProxy: 1 });
  assert.is((await requestInProcess(app, '/ip', { headers: { 'x-forwarded-for': '1.1.1.1, 203.0.113.7' } })).json().ip, '203.0.113.7');
  assert.is((await requestInProcess(app, '/ip')).json().ip, null);
});

Canonical.run();
Trust.run();
