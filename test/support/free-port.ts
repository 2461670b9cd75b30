// A loopback port for a server a suite starts as a process of its own (redis-server, a registry):
// one the system just handed out and released, since other suites and engineers hold fixed ones.
import { type AddressInfo, createServer } from 'node:net';

/** Resolves with a free port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
