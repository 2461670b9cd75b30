// listen({ reusePort: true }): several processes bind one port and the kernel spreads the
// connections between them (SO_REUSEPORT). Linux balances them; elsewhere the option means other
// things or nothing, so it is refused rather than silently ignored.
import { kilnError } from '../kiln-error.js';

interface RuntimeGlobals {
  Bun?: unknown;
  Deno?: { build?: { os?: string } };
  process?: { platform?: string; versions?: { node?: string } };
}

/** Node's first version with `reusePort` in `server.listen()`. */
const nodeSince = [22, 12] as const;

/** Throws KILN053 when this runtime cannot share a port between processes. */
export function assertReusePort(runtime: RuntimeGlobals = globalThis as RuntimeGlobals): void {
  const os = runtime.Deno?.build?.os ?? runtime.process?.platform ?? 'unknown';
  const name = runtime.Bun !== undefined ? 'Bun' : runtime.Deno !== undefined ? 'Deno' : 'Node';
  if (os !== 'linux') throw kilnError('KILN053', 'notLinux', name, os);
  if (name !== 'Node') return;
  const [major = 0, minor = 0] = (runtime.process?.versions?.node ?? '0.0').split('.').map(Number);
  if (major < nodeSince[0] || (major === nodeSince[0] && minor < nodeSince[1]))
    throw kilnError('KILN053', 'nodeTooOld', runtime.process?.versions?.node ?? 'unknown');
}
