/**
 * `@kiln/core/register`: runs a Kiln app's TypeScript directly on Node, compiled by the same build
 * as tspc and the bundler plugins (binders, typia validators, KILN errors). A module that Kiln
 * reports an error in is refused, with the errors printed at their file:line:column.
 *
 * @example
 * ```sh
 * node --import @kiln/core/register src/main.ts           # run
 * node --watch --import @kiln/core/register src/main.ts   # dev loop: restarts on edits, type-only imports included
 * ```
 *
 * `KILN_TSCONFIG` names the project's tsconfig.json (default: `tsconfig.json` in the current directory).
 */
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

// The hooks run on Node's loader thread; the files a module depends on for types (never loaded,
// so never watched by Node) come back on this channel and are reported to `node --watch`.
const { port1, port2 } = new MessageChannel();
port1.on('message', (message: { watch?: string[] }) => {
  if (message.watch !== undefined && process.env['WATCH_REPORT_DEPENDENCIES'] !== undefined && process.send !== undefined) {
    process.send({ 'watch:import': message.watch });
  }
});
port1.unref();

register('./load-hooks.mjs', import.meta.url, {
  data: { port: port2, tsconfig: process.env['KILN_TSCONFIG'] },
  transferList: [port2],
});
