// A loopback port for a benchmark's server: one the system just handed out and released, since
// other work on a shared machine holds fixed ports.
import { createServer } from 'node:net';

/** Resolves with a free port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}
