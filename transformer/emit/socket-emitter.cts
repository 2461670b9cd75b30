// Emit stage for WebSocket routes: one codec constant per route, in the generated tail (moved to
// the top of the file at emit time, like validators and serialisers), which the route's
// `@kiln$b.compiledSocket(...)` hands to the runtime:
// `const kiln$socket_0 = { validate: kiln$typia.createValidateEquals<In>(), serialize: kiln$b.projectingSerializer(...) };`
import type { FileSockets } from '../analyse/socket-messages.cjs';
import { helpersNamespace, socketCodecName, typiaNamespace } from './generated-names.cjs';
import { emitProjector } from './projector-emitter.cjs';

export interface GeneratedSockets {
  readonly text: string;
  /** Codec constant name by the method's `nameEnd`. */
  readonly codecs: ReadonlyMap<number, string>;
  /** The method name (original positions) each codec was written for (typia's errors about `In` go there). */
  readonly sites: ReadonlyMap<string, { readonly start: number; readonly end: number }>;
}

/** The codecs of one file. `typiaDeclared`: whether the tail already declares `kiln$typia`. */
export function emitSockets(file: FileSockets, typiaDeclared: boolean): GeneratedSockets {
  const codecs = new Map<number, string>();
  const sites = new Map<string, { start: number; end: number }>();
  const lines = ['// ---- WebSocket messages: In checked by typia, Out projected (docs/guide/streaming.md) ----'];
  const needsTypia = [...file.methods.values()].some((messages) => messages.incoming !== undefined);
  if (needsTypia && !typiaDeclared) lines.push(`declare const ${typiaNamespace}: typeof import('typia').default;`);
  for (const [nameEnd, messages] of file.methods) {
    const name = socketCodecName(codecs.size);
    codecs.set(nameEnd, name);
    sites.set(name, messages.site);
    const validate = messages.incoming === undefined ? 'undefined' : `${typiaNamespace}.createValidateEquals<${messages.incoming}>()`;
    const serialize =
      messages.outgoing === undefined ? 'undefined' : `${helpersNamespace}.projectingSerializer(${emitProjector(messages.outgoing)})`;
    lines.push(`const ${name} = { validate: ${validate}, serialize: ${serialize} };`);
  }
  lines.push(`void [${[...codecs.values()].join(', ')}];`, '');
  return { text: lines.join('\n'), codecs, sites };
}
