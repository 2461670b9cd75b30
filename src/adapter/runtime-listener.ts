import { kilnError } from '../kiln-error.js';
import type { StartListener } from './listener.js';

interface RuntimeGlobals {
  Bun?: unknown;
  Deno?: unknown;
  navigator?: { userAgent?: string };
  process?: { versions?: { node?: string } };
}

/**
 * The listener of the runtime this code runs on, imported on first use so that the others' code
 * is never loaded: Bun.serve on Bun, Deno.serve on Deno, node:http on Node. Bun and Deno also say
 * they are Node (process.versions.node), so they are asked first; workerd has no listener at all.
 */
export async function runtimeListener(): Promise<StartListener> {
  const runtime = globalThis as RuntimeGlobals;
  if (runtime.Bun !== undefined) return (await import('./bun/bun-listener.js')).startBunListener;
  if (runtime.Deno !== undefined) return (await import('./deno/deno-listener.js')).startDenoListener;
  if (runtime.navigator?.userAgent !== 'Cloudflare-Workers' && runtime.process?.versions?.node !== undefined) {
    return (await import('./node/node-listener.js')).startNodeListener;
  }
  throw kilnError('KILN014', 'noListener');
}
