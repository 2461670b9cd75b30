import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  KilnError,
  canonicalAddress,
  createServer,
  requestLogger,
  type KilnConfig,
  type LogDestination,
  type TrustProxy,
} from '@kiln/core';
import { servedFromPeer } from '../support/peer.js';
import { request, requestInProcess, start } from '../support/server.js';
import { WhoAmI } from '../support/who-am-i.js';

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
  'true (first X-Forwarded-For address) and the default from a loopback peer (right-most public one), else X-Real-IP, else the socket; canonical; garbage never used',
  async () => {
    for (const trustProxy of [true, undefined]) {
      const ips = await ipOver(trustProxy, [
        { 'x-forwarded-for': '203.0.113.7, 10.0.0.1' },
        { 'x-forwarded-for': '[2001:DB8:0::1]:443, 10.0.0.1' },
        { 'x-forwarded-for': 'unknown, 10.0.0.1', 'x-real-ip': '::ffff:198.51.100.2' },
        { 'x-forwarded-for': 'x'.repeat(5000), 'x-real-ip': 'y'.repeat(5000) },
        {},
      ]);
      assert.equal(ips, ['203.0.113.7', '2001:db8::1', '198.51.100.2', '127.0.0.1', '127.0.0.1'], `trustProxy ${trustProxy}`);
    }
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

const Default = suite('trustProxy default: forwarding headers only from a nearby peer');

/** A destination that keeps every log line, parsed. */
function memoryLog(): LogDestination & { lines: Record<string, any>[] } {
  const lines: Record<string, any>[] = [];
  return { lines, write: (line: string) => void lines.push(JSON.parse(line)) };
}

/** The warnings about forwarding headers among the log lines. */
function proxyWarnings(lines: Record<string, any>[]): Record<string, any>[] {
  return lines.filter((line) => line.level === 40 && line.trustProxy !== undefined);
}

/** `req.ip` for each set of headers, over HTTP from a connection whose peer is `peer`. */
async function ipFromPeer(
  peer: string,
  trustProxy: TrustProxy | undefined,
  headers: Record<string, string>[],
): Promise<{ ips: (string | null)[]; log: Record<string, any>[] }> {
  const destination = memoryLog();
  const config: KilnConfig = { controllers: [WhoAmI], logger: { destination } };
  if (trustProxy !== undefined) config.trustProxy = trustProxy;
  const server = await servedFromPeer(config, peer);
  try {
    const ips: (string | null)[] = [];
    for (const h of headers) ips.push((await request(server.base, '/ip', { headers: h })).json().ip);
    return { ips, log: destination.lines };
  } finally {
    await server.close();
  }
}

const forged: Record<string, string>[] = [
  { 'x-forwarded-for': '198.51.100.1' },
  { 'x-forwarded-for': '198.51.100.2, 10.0.0.1' },
  { 'x-real-ip': '198.51.100.3' },
  { 'x-forwarded-for': '198.51.100.4', 'x-real-ip': '198.51.100.5' },
];

Default(
  'a public peer: X-Forwarded-For and X-Real-IP are ignored, req.ip is the peer; one warning names the peer, the header and trustProxy',
  async () => {
    for (const peer of ['203.0.113.50', '2001:db8::50', '::ffff:203.0.113.51', '172.32.0.1', '11.0.0.1', '192.169.0.1', 'fe00::1']) {
      const { ips, log } = await ipFromPeer(peer, undefined, forged);
      const canonical = canonicalAddress(peer)!;
      assert.equal(ips, Array(forged.length).fill(canonical), peer);
      const warnings = proxyWarnings(log);
      assert.is(warnings.length, 1, `${peer}: one warning for four requests`);
      assert.equal([warnings[0]!.peer, warnings[0]!.header, warnings[0]!.trustProxy], [canonical, 'X-Forwarded-For', 'default']);
      assert.ok(
        warnings[0]!.msg.startsWith(`The X-Forwarded-For header of the public peer ${canonical} was ignored (req.ip is ${canonical})`),
        warnings[0]!.msg,
      );
      assert.ok(warnings[0]!.msg.includes('Set createServer({ trustProxy })'), warnings[0]!.msg);
    }
    const { log } = await ipFromPeer('203.0.113.50', undefined, [{}, { 'x-real-ip': '198.51.100.3' }]);
    assert.equal(
      proxyWarnings(log).map((line) => [line.peer, line.header]),
      [['203.0.113.50', 'X-Real-IP']],
      'X-Real-IP named when it is the one sent',
    );
  },
);

Default(
  'a loopback or private-network peer (a proxy in front): the right-most public X-Forwarded-For address, else X-Real-IP; one warning',
  async () => {
    for (const peer of [
      '127.0.0.1',
      '127.1.2.3',
      '::1',
      '10.0.0.5',
      '172.16.0.1',
      '172.31.255.254',
      '192.168.1.2',
      'fd00::1',
      '::ffff:10.1.1.1',
    ]) {
      const { ips, log } = await ipFromPeer(peer, undefined, forged);
      assert.equal(ips, ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4'], peer);
      const warnings = proxyWarnings(log);
      assert.is(warnings.length, 1, `${peer}: one warning for four requests`);
      const canonical = canonicalAddress(peer)!;
      assert.equal([warnings[0]!.peer, warnings[0]!.header, warnings[0]!.trustProxy], [canonical, 'X-Forwarded-For', 'default']);
      assert.ok(
        warnings[0]!.msg.startsWith(`req.ip is 198.51.100.1, taken from the X-Forwarded-For header of the ${canonical} peer: by default`),
        warnings[0]!.msg,
      );
    }
  },
);

Default('public and nearby peers answered in turn by one process: each request is judged by its own peer', async () => {
  const config: KilnConfig = { controllers: [WhoAmI], logger: { destination: memoryLog() } };
  const servers = [await servedFromPeer(config, '203.0.113.50'), await servedFromPeer(config, '127.0.0.1')];
  try {
    const headers = { 'x-forwarded-for': '198.51.100.9' };
    const ips: (string | null)[] = [];
    for (let round = 0; round < 3; round++)
      for (const server of servers) ips.push((await request(server.base, '/ip', { headers })).json().ip);
    assert.equal(ips, ['203.0.113.50', '198.51.100.9', '203.0.113.50', '198.51.100.9', '203.0.113.50', '198.51.100.9']);
  } finally {
    for (const server of servers) await server.close();
  }
});

Default('the default with no forwarding header logs nothing', async () => {
  for (const peer of ['203.0.113.50', '10.0.0.5']) {
    const { ips, log } = await ipFromPeer(peer, undefined, [{}, {}]);
    assert.equal(ips, [peer, peer]);
    assert.equal(proxyWarnings(log), []);
  }
});

Default('true, a hop count and a list keep their meaning from any peer and log nothing', async () => {
  const cases: [TrustProxy, string, (string | null)[]][] = [
    [true, '203.0.113.50', ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4']],
    [1, '203.0.113.50', ['198.51.100.1', '10.0.0.1', '203.0.113.50', '198.51.100.4']],
    [['203.0.113.0/24'], '203.0.113.50', ['198.51.100.1', '10.0.0.1', '203.0.113.50', '198.51.100.4']],
    [['10.0.0.0/8'], '203.0.113.50', Array(4).fill('203.0.113.50')],
    [false, '10.0.0.5', Array(4).fill('10.0.0.5')],
  ];
  for (const [trustProxy, peer, expected] of cases) {
    const { ips, log } = await ipFromPeer(peer, trustProxy, forged);
    assert.equal(ips, expected, `trustProxy ${JSON.stringify(trustProxy)}`);
    assert.equal(proxyWarnings(log), [], `trustProxy ${JSON.stringify(trustProxy)}: no warning`);
    assert.equal(
      log.filter((line) => line.level >= 40),
      [],
      'nothing else either',
    );
  }
});

Default('no peer address (app.fetch): the first rule applies, and the one warning says there is no peer address', async () => {
  const destination = memoryLog();
  const app = createServer({ controllers: [WhoAmI], logger: { destination } });
  for (const headers of forged) await requestInProcess(app, '/ip', { headers });
  assert.is((await requestInProcess(app, '/ip', { headers: { 'x-forwarded-for': '198.51.100.9' } })).json().ip, '198.51.100.9');
  assert.is((await requestInProcess(app, '/ip')).json().ip, null);
  const warnings = proxyWarnings(destination.lines);
  assert.is(warnings.length, 1);
  assert.is(warnings[0]!.peer, 'no peer address (in-process app.fetch, or a runtime such as Workers that gives none)');
  assert.ok(warnings[0]!.msg.startsWith('req.ip is 198.51.100.1, taken from the X-Forwarded-For header of a request with no peer address'));
});

Default("X-Request-Id is kept from a nearby peer and replaced from a public one, as the default's req.ip rule says", async () => {
  for (const [peer, kept] of [
    ['10.0.0.5', true],
    ['203.0.113.50', false],
  ] as const) {
    const server = await servedFromPeer(
      { controllers: [WhoAmI], middlewares: [requestLogger()], logger: { destination: memoryLog() } },
      peer,
    );
    try {
      const reply = await request(server.base, '/ip', { headers: { 'x-request-id': 'proxy-id-1' } });
      assert.is(reply.headers.get('x-request-id') === 'proxy-id-1', kept, peer);
    } finally {
      await server.close();
    }
  }
});

Canonical.run();
Trust.run();
Default.run();
