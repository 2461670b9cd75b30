import { kilnError } from '../kiln-error.js';
import type { ListenOptions } from '../server-config.js';
import type { Listening, ListenTarget } from './listener.js';
import { assertReusePort } from './reuse-port.js';
import { runtimeListener } from './runtime-listener.js';

/** `app.listen()` and what it opened. */
export interface ServerListener {
  listen(portOrOptions?: number | ListenOptions, hostname?: string): Promise<{ port: number; host: string }>;
  /** The listening server, once `listen()` was called (it may still be opening). */
  readonly listening: Promise<Listening> | undefined;
}

export interface ServerListenerOptions {
  /** The application's start: the listener opens once it has succeeded. */
  readonly ready: Promise<void>;
  /** Everything the runtime's listener gets, except `reusePort`, which `listen()` is given. */
  readonly target: Omit<ListenTarget, 'reusePort'>;
}

/** `app.listen(3000, 'localhost')` and `app.listen({ port, host, reusePort })`, in one form. */
function listenOptions(
  portOrOptions: number | ListenOptions,
  hostname: string | undefined,
): { port: number; host: string | undefined; reusePort: boolean } {
  const given = typeof portOrOptions === 'object' && portOrOptions !== null ? portOrOptions : { port: portOrOptions, host: hostname };
  const reusePort = given.reusePort ?? false;
  if (typeof reusePort !== 'boolean') throw kilnError('KILN053', 'reusePortOption', reusePort);
  return { port: given.port ?? 3000, host: given.host, reusePort };
}

/** Listens once, with the listener of the runtime this runs on (node:http, Bun.serve, Deno.serve), loaded only there. */
export function serverListener({ ready, target }: ServerListenerOptions): ServerListener {
  let listening: Promise<Listening> | undefined;
  return {
    async listen(portOrOptions = 3000, hostname) {
      const { port, host, reusePort } = listenOptions(portOrOptions, hostname);
      if (reusePort) assertReusePort();
      if (listening !== undefined) throw new Error('This Kiln server is already listening');
      const opening = (async () => {
        const start = await runtimeListener();
        await ready;
        return start({ ...target, reusePort }, port, host);
      })();
      listening = opening;
      return (await opening).address;
    },
    get listening() {
      return listening;
    },
  };
}
