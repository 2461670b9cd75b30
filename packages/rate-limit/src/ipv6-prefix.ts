/**
 * The network part of an IPv6 address, as a key: `2001:db8:1234:5678::9` under 56 bits is
 * `2001:db8:1234:5600::/56`. `undefined` for text that is not plain IPv6 (IPv4, an embedded IPv4
 * form, a zone): the caller keys on the text itself. Kiln's `req.ip` is already canonical
 * (compressed, lower-case, IPv4-mapped as IPv4), so every spelling of one network gives one key.
 */
export function ipv6Prefix(address: string, bits: number): string | undefined {
  const double = address.indexOf('::');
  const head = double === -1 ? address : address.slice(0, double);
  const tail = double === -1 ? '' : address.slice(double + 2);
  const headParts = head === '' ? [] : head.split(':');
  const tailParts = tail === '' ? [] : tail.split(':');
  const missing = 8 - headParts.length - tailParts.length;
  if (double === -1 ? missing !== 0 : missing < 1) return undefined;
  const parts = [...headParts, ...new Array<string>(missing).fill('0'), ...tailParts];
  const kept = Math.ceil(bits / 16);
  const words: string[] = [];
  for (let i = 0; i < 8; i++) {
    const part = parts[i]!;
    if (!/^[0-9a-fA-F]{1,4}$/.test(part)) return undefined;
    if (i >= kept) continue;
    const keep = Math.min(16, bits - i * 16);
    words.push((parseInt(part, 16) & ((0xffff << (16 - keep)) & 0xffff)).toString(16));
  }
  if (kept >= 8) return words.join(':');
  while (words.length > 0 && words[words.length - 1] === '0') words.pop(); // the zeros go into the '::'
  return `${words.join(':')}::/${bits}`;
}
