import { kilnError } from '../kiln-error.js';

/**
 * Which proxies the server trusts to report the client's address (`createServer({ trustProxy })`):
 *
 * - not set (the default): only when the socket's peer is a loopback or private-network address
 *   (a proxy in front of the app), the right-most `X-Forwarded-For` address that is not one too
 *   (what the proxy appended: a client's own entries before it are never used), else `X-Real-IP`;
 *   a public peer's forwarding headers are ignored. The first time a forwarded address is used or
 *   ignored, one warning naming the peer, the header and `trustProxy` is logged. A request
 *   without a peer address (`app.fetch`, Workers) is treated as coming from a proxy.
 * - `true`: the first `X-Forwarded-For` address, else `X-Real-IP`, from any peer. Safe only
 *   behind a proxy that overwrites both headers.
 * - `false`: the socket address; the headers are ignored.
 * - a hop count (`1`): that many proxies in front of the server append to `X-Forwarded-For`;
 *   the client is the entry that many hops from the right.
 * - addresses / CIDR ranges (`['10.0.0.0/8', '127.0.0.1']`, or one comma-separated string; the
 *   names `loopback`, `linklocal`, `uniquelocal` stand for their ranges): the client is the
 *   right-most address that is not one of them.
 *
 * @example
 * ```ts
 * createServer({ controllers, trustProxy: 1 });                          // one load balancer that appends
 * createServer({ controllers, trustProxy: ['loopback', '10.0.0.0/8'] }); // nginx on the host, LBs in 10/8
 * ```
 */
export type TrustProxy = boolean | number | string | readonly string[];

/** An address as 16 bytes (IPv4 as its IPv4-mapped IPv6 form, so one range check serves both). */
type AddressBytes = Uint8Array;

interface Range {
  bytes: AddressBytes;
  bits: number;
}

/** `trustProxy` compiled once by `createServer`. */
export interface ProxyTrust {
  /** `nearby`: the default, forwarding headers from loopback and private-network peers only. */
  readonly mode: 'none' | 'first' | 'nearby' | 'hops' | 'ranges';
  readonly hops: number;
  readonly ranges: readonly Range[];
  /** Under the default: whether the server has logged its one warning about forwarding headers. */
  warned: boolean;
}

/** Where a warning about the default goes (the application's logger). */
export interface ProxyWarningLog {
  warn(fields: object, message: string): void;
}

const namedRanges: Record<string, readonly string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

// ---- parsing ----

function parseIPv4(text: string, into: Uint8Array, at: number): boolean {
  let part = 0;
  let digits = 0;
  let index = at;
  for (let i = 0; i <= text.length; i++) {
    const code = i === text.length ? 46 : text.charCodeAt(i);
    if (code === 46 /* . */) {
      if (digits === 0 || index === at + 4) return false;
      into[index++] = part;
      part = 0;
      digits = 0;
    } else if (code >= 48 && code <= 57) {
      if (digits > 0 && part === 0) return false; // a leading zero reads as octal elsewhere: refused
      part = part * 10 + (code - 48);
      if (part > 255) return false;
      digits++;
    } else return false;
  }
  return index === at + 4;
}

function parseIPv6(text: string, into: Uint8Array): boolean {
  const double = text.indexOf('::');
  if (double !== -1 && text.indexOf('::', double + 1) !== -1) return false;
  const head = double === -1 ? text : text.slice(0, double);
  const tail = double === -1 ? '' : text.slice(double + 2);
  const headParts = head === '' ? [] : head.split(':');
  const tailParts = tail === '' ? [] : tail.split(':');
  const groups: number[] = [];
  const all = [...headParts, ...tailParts];
  let v4: string | undefined;
  if (all.length > 0 && all[all.length - 1]!.includes('.')) v4 = all.pop();
  for (const part of all) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(part)) return false;
    groups.push(parseInt(part, 16));
  }
  const width = groups.length + (v4 === undefined ? 0 : 2);
  if (double === -1 ? width !== 8 : width > 7) return false;
  // An embedded IPv4 address can only end the address: never right before a final '::'.
  if (v4 !== undefined && double !== -1 && tailParts.length === 0) return false;
  const headCount = double === -1 ? groups.length : headParts.length;
  const words: number[] = [...groups.slice(0, headCount), ...new Array<number>(8 - width).fill(0), ...groups.slice(headCount)];
  for (let i = 0; i < words.length; i++) {
    into[i * 2] = words[i]! >> 8;
    into[i * 2 + 1] = words[i]! & 255;
  }
  return v4 === undefined || parseIPv4(v4, into, 12);
}

const mappedPrefix = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255];

function isMapped(bytes: AddressBytes): boolean {
  for (let i = 0; i < 12; i++) if (bytes[i] !== mappedPrefix[i]) return false;
  return true;
}

/** The bare address of `text`: brackets, port and IPv6 zone removed; `undefined` when it is not one. */
function bareAddress(text: string): string | undefined {
  let value = text.trim();
  if (value.charCodeAt(0) === 91 /* [ */) {
    const close = value.indexOf(']');
    if (close === -1) return undefined;
    const rest = value.slice(close + 1);
    if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return undefined;
    value = value.slice(1, close);
  } else {
    const colon = value.indexOf(':');
    // '203.0.113.7:51234' is an IPv4 address with a port; two colons or more make an IPv6 address
    if (colon !== -1 && value.indexOf(':', colon + 1) === -1) {
      if (!/^\d{1,5}$/.test(value.slice(colon + 1))) return undefined;
      value = value.slice(0, colon);
    }
  }
  const zone = value.indexOf('%');
  if (zone !== -1) value = value.slice(0, zone);
  return value === '' || value.length > 45 ? undefined : value;
}

/** Reads an address into 16 bytes (IPv4 mapped into IPv6); false when `text` is not one. */
function readAddress(text: string, into: AddressBytes): boolean {
  const value = bareAddress(text);
  if (value === undefined) return false;
  if (value.includes(':')) return parseIPv6(value, into);
  into.set(mappedPrefix);
  return parseIPv4(value, into, 12);
}

/** 16 new bytes for an address, or `undefined`. */
function addressBytes(text: string): AddressBytes | undefined {
  const bytes = new Uint8Array(16);
  return readAddress(text, bytes) ? bytes : undefined;
}

/** Reused by canonicalAddress on the request path (it never re-enters itself). */
const scratch = new Uint8Array(16);

/** RFC 5952 text: IPv4 dotted for mapped addresses, else lower-case hex with the longest zero run as `::`. */
function formatAddress(bytes: AddressBytes): string {
  if (isMapped(bytes)) return `${bytes[12]}.${bytes[13]}.${bytes[14]}.${bytes[15]}`;
  const words: number[] = [];
  for (let i = 0; i < 16; i += 2) words.push((bytes[i]! << 8) | bytes[i + 1]!);
  let bestStart = -1;
  let bestLength = 1; // a single zero group is not compressed
  for (let i = 0; i < 8; ) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let end = i;
    while (end < 8 && words[end] === 0) end++;
    if (end - i > bestLength) {
      bestStart = i;
      bestLength = end - i;
    }
    i = end;
  }
  const hex = words.map((word) => word.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/**
 * The canonical text of a client address, or `undefined` when `text` is not an IP address:
 * brackets, port and zone stripped, IPv4-mapped IPv6 as plain IPv4, IPv6 compressed and
 * lower-case (RFC 5952). One client has one spelling, so it has one rate-limit key.
 *
 * @example
 * ```ts
 * canonicalAddress('[2001:DB8:0:0::1]:443'); // '2001:db8::1'
 * canonicalAddress('::ffff:203.0.113.7');    // '203.0.113.7'
 * canonicalAddress('not-an-ip');             // undefined
 * ```
 */
// hot path: `req.ip` on every rate-limited request; a plain IPv4 address is returned as given
export function canonicalAddress(text: string): string | undefined {
  if (!readAddress(text, scratch)) return undefined;
  if (isMapped(scratch) && text.length <= 15 && text.charCodeAt(0) !== 58 /* : */) {
    // dotted IPv4 with no port and no leading zeros (parseIPv4 refuses those): already canonical
    const trimmed = text.trim();
    if (trimmed.length === text.length && !trimmed.includes(':')) return trimmed;
  }
  return formatAddress(scratch);
}

function maskBytes(bytes: AddressBytes, bits: number): void {
  for (let i = 0; i < 16; i++) {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    bytes[i]! &= (0xff << (8 - keep)) & 0xff;
  }
}

function inRange(bytes: AddressBytes, range: Range): boolean {
  const whole = range.bits >> 3;
  for (let i = 0; i < whole; i++) if (bytes[i] !== range.bytes[i]) return false;
  const rest = range.bits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (bytes[whole]! & mask) === (range.bytes[whole]! & mask);
}

function parseRange(entry: string): Range {
  const slash = entry.indexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const bytes = addressBytes(address);
  if (bytes === undefined) throw kilnError('KILN070', 'notAnAddress', entry);
  const v4 = !address.includes(':');
  const width = v4 ? 32 : 128;
  const suffix = slash === -1 ? String(width) : entry.slice(slash + 1);
  if (!/^\d{1,3}$/.test(suffix) || Number(suffix) > width) throw kilnError('KILN070', 'prefixLength', entry, width);
  // An IPv4 range is a range of the IPv4-mapped block: its prefix counts the 96 bits before it.
  const bits = v4 ? 96 + Number(suffix) : Number(suffix);
  maskBytes(bytes, bits);
  return { bytes, bits };
}

/** Checks and compiles `createServer({ trustProxy })` once (KILN070 for a value it cannot use). */
export function compileTrustProxy(value: TrustProxy | undefined): ProxyTrust {
  if (value === undefined) return { mode: 'nearby', hops: 0, ranges: [], warned: false };
  if (value === true) return { mode: 'first', hops: 0, ranges: [], warned: false };
  if (value === false) return { mode: 'none', hops: 0, ranges: [], warned: false };
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0) throw kilnError('KILN070', 'hopCount', value);
    return value === 0 ? { mode: 'none', hops: 0, ranges: [], warned: false } : { mode: 'hops', hops: value, ranges: [], warned: false };
  }
  const entries = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : undefined;
  if (entries === undefined) throw kilnError('KILN070', 'kind', typeof value);
  const ranges: Range[] = [];
  for (const raw of entries) {
    if (typeof raw !== 'string') throw kilnError('KILN070', 'entryKind', typeof raw);
    const entry = raw.trim();
    for (const item of namedRanges[entry] ?? [entry]) ranges.push(parseRange(item));
  }
  return { mode: 'ranges', hops: 0, ranges, warned: false };
}

/** The loopback and private-network ranges (RFC 1918, RFC 4193) whose peers the default trusts. */
const nearbyRanges: readonly Range[] = [...namedRanges.loopback!, ...namedRanges.uniquelocal!].map(parseRange);

function isNearby(bytes: AddressBytes): boolean {
  for (const range of nearbyRanges) if (inRange(bytes, range)) return true;
  return false;
}

/**
 * X-Forwarded-For walked from the right (the entry the nearest proxy appended), past the hops
 * `trustedHop` accepts (called with each entry just read, its bytes in `scratch`, and its hop
 * number, 1 for the right-most): the first entry it does not accept (`beyond`: true); else the
 * left-most accepted one, or `nearest` when none is. Garbage where an address belongs ends the walk
 * at the last hop known. Entries a client wrote before the first untrusted one are never used.
 */
function walkForwarded(
  forwarded: string,
  nearest: string | undefined,
  trustedHop: (address: string, hop: number) => boolean,
): { address: string | undefined; beyond: boolean } {
  const entries = forwarded.split(',');
  for (let i = entries.length - 1, hop = 1; i >= 0; i--, hop++) {
    const entry = canonicalAddress(entries[i]!);
    if (entry === undefined) break;
    if (!trustedHop(entry, hop)) return { address: entry, beyond: true };
    nearest = entry;
  }
  return { address: nearest, beyond: false };
}

const nearbyHop = (): boolean => isNearby(scratch);

/**
 * The default's rule: X-Forwarded-For walked past loopback and private-network hops; X-Real-IP
 * when no public entry is found, else the left-most private hop.
 */
function nearbyForwarded(headers: Headers): { address: string; header: string } | undefined {
  const forwarded = headers.get('x-forwarded-for');
  const walked = forwarded ? walkForwarded(forwarded, undefined, nearbyHop) : undefined;
  if (walked?.beyond) return { address: walked.address!, header: 'X-Forwarded-For' };
  const realIp = headers.get('x-real-ip');
  const real = realIp ? canonicalAddress(realIp) : undefined;
  if (real !== undefined) return { address: real, header: 'X-Real-IP' };
  return walked?.address === undefined ? undefined : { address: walked.address, header: 'X-Forwarded-For' };
}

/** The first rule (`trustProxy: true`): X-Forwarded-For's first entry, else X-Real-IP; with the header it came from. */
function firstForwarded(headers: Headers): { address: string; header: string } | undefined {
  const forwarded = headers.get('x-forwarded-for');
  if (forwarded) {
    const comma = forwarded.indexOf(',');
    const first = canonicalAddress(comma === -1 ? forwarded : forwarded.slice(0, comma));
    if (first !== undefined) return { address: first, header: 'X-Forwarded-For' };
  }
  const realIp = headers.get('x-real-ip');
  const real = realIp ? canonicalAddress(realIp) : undefined;
  return real === undefined ? undefined : { address: real, header: 'X-Real-IP' };
}

const defaultRule =
  'by default Kiln believes forwarding headers only from a loopback or private-network peer (a proxy in front of the app)';

/** The default's one warning per server: a user learns the rule from the log before an attacker does. */
function warnOnce(trust: ProxyTrust, log: ProxyWarningLog | undefined, message: string, fields: object): void {
  if (trust.warned || log === undefined) return;
  trust.warned = true;
  log.warn(
    { ...fields, trustProxy: 'default' },
    `${message}: ${defaultRule}. Set createServer({ trustProxy }) to say which proxies to believe ` +
      '(a list of their addresses, a hop count, true for any peer, or false for none); this warning is logged once.',
  );
}

/** `req.ip` under the default: the forwarded address for a nearby peer (or none), the socket otherwise. */
function nearbyClientAddress(
  trust: ProxyTrust,
  headers: Headers,
  socketAddress: string | undefined,
  log: ProxyWarningLog | undefined,
): string | undefined {
  const socket = socketAddress === undefined ? undefined : canonicalAddress(socketAddress);
  // canonicalAddress left the socket's bytes in `scratch`: checked before anything reuses it.
  const nearby = socketAddress === undefined || (socket !== undefined && isNearby(scratch));
  if (nearby) {
    const forwarded = nearbyForwarded(headers);
    if (forwarded === undefined) return socket;
    if (!trust.warned) {
      const peer = socket ?? 'no peer address (in-process app.fetch, or a runtime such as Workers that gives none)';
      const from = socket === undefined ? 'a request with no peer address' : `the ${socket} peer`;
      warnOnce(trust, log, `req.ip is ${forwarded.address}, taken from the ${forwarded.header} header of ${from}`, {
        peer,
        header: forwarded.header,
      });
    }
    return forwarded.address;
  }
  if (!trust.warned) {
    const header = headers.get('x-forwarded-for') ? 'X-Forwarded-For' : headers.get('x-real-ip') ? 'X-Real-IP' : undefined;
    if (header !== undefined)
      warnOnce(trust, log, `The ${header} header of the public peer ${socket} was ignored (req.ip is ${socket})`, { peer: socket, header });
  }
  return socket;
}

/**
 * `req.ip`: the client address under the server's `trustProxy`, canonical (see
 * `canonicalAddress`). A header entry that is not an address is never used.
 * With a hop count or a list, X-Forwarded-For is walked from the right (the entry the nearest
 * proxy appended) past trusted hops; the first untrusted one is the client. A request without a
 * socket (in-process `app.fetch`) is treated as coming from a trusted hop. Under the default,
 * `log` gets the one warning about forwarding headers.
 */
export function clientAddress(
  trust: ProxyTrust,
  headers: Headers,
  socketAddress: string | undefined,
  log?: ProxyWarningLog,
): string | undefined {
  if (trust.mode === 'nearby') return nearbyClientAddress(trust, headers, socketAddress, log);
  const socket = socketAddress === undefined ? undefined : canonicalAddress(socketAddress);
  if (trust.mode === 'none') return socket;
  if (trust.mode === 'first') return firstForwarded(headers)?.address ?? socket;
  if (socket !== undefined && !trusted(trust, socket, 0)) return socket;
  const forwarded = headers.get('x-forwarded-for');
  if (!forwarded) return socket;
  return walkForwarded(forwarded, socket, (address, hop) => trusted(trust, address, hop)).address;
}

function trusted(trust: ProxyTrust, address: string, hop: number): boolean {
  if (trust.mode === 'hops') return hop < trust.hops;
  const bytes = addressBytes(address)!;
  for (const range of trust.ranges) if (inRange(bytes, range)) return true;
  return false;
}

/**
 * Whether the headers of a request come from a proxy the server trusts (under the same
 * `trustProxy` rule as `req.ip`): any request with `true`, none with `false`, with the default
 * only from a loopback or private-network peer, and with a hop count or a list only when the
 * socket's peer is a trusted proxy. A request without a socket
 * (in-process `app.fetch`) is treated as coming from a trusted hop, as for `req.ip`.
 */
export function fromTrustedProxy(trust: ProxyTrust, socketAddress: string | undefined): boolean {
  if (trust.mode === 'none') return false;
  if (trust.mode === 'first' || trust.mode === 'hops' || socketAddress === undefined) return true;
  const socket = canonicalAddress(socketAddress);
  if (socket === undefined) return false;
  return trust.mode === 'nearby' ? isNearby(scratch) : trusted(trust, socket, 0);
}
