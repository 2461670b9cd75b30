import { readFileSync } from 'node:fs';

/**
 * A body larger than what the kernel's socket buffers can hold for a client that reads nothing
 * (its receive buffer and the server's send buffer, both autotuned up to these maxima): only then
 * is the rest of the answer held by the server, which is what sendTimeout must release.
 */
export function stallingSize(): number {
  const maximum = (file: string) => {
    try {
      return Number(readFileSync(file, 'utf8').trim().split(/\s+/).pop());
    } catch {
      return 0;
    }
  };
  const buffered = maximum('/proc/sys/net/ipv4/tcp_rmem') + maximum('/proc/sys/net/ipv4/tcp_wmem');
  return Math.max(20, Math.ceil(buffered / 2 ** 20) + 8) * 2 ** 20;
}
