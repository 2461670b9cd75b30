// The `<name>=<server script>` arguments of the profiling scripts (ab-servers, interleaved,
// mixed-routes): each started once on a free-ish port, pinned to the server core.
import { resolve } from 'node:path';
import { startServer } from '../http/server-process.mjs';

/**
 * Starts each named script and pushes `{ name, port, process }` onto `running` as it comes up, so
 * that the caller's `finally` stops every server that did start, even when a later one fails.
 * `options` go to startServer (the probe request, a runtime's command).
 */
export async function startNamedServers(pairs, running, options = {}) {
  for (const [i, pair] of pairs.entries()) {
    const [name, script] = pair.split('=');
    const port = 21_000 + Math.floor(Math.random() * 20_000) + i;
    const process = await startServer({ name, script: resolve(script) }, port, options);
    running.push({ name, port, process });
  }
}
