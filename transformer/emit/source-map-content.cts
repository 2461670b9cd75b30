import type * as ts from 'typescript';

const inlineMap = /(\/\/# sourceMappingURL=data:application\/json;base64,)([A-Za-z0-9+/=]+)/;

function restore(json: string, originals: ReadonlyMap<string, string>): string {
  const map = JSON.parse(json) as { sourcesContent?: (string | null)[] };
  if (!Array.isArray(map.sourcesContent)) return json;
  let changed = false;
  map.sourcesContent = map.sourcesContent.map((content) => {
    const original = content === null ? undefined : originals.get(content);
    if (original === undefined) return content;
    changed = true;
    return original;
  });
  return changed ? JSON.stringify(map) : json;
}

/**
 * With `inlineSources`, a source map embeds the text the emitter compiled: for a rewritten file
 * that is the blanked text plus the generated code. This `writeFile` wrapper puts the user's own
 * text back (in `.map` files and in inline maps); the mappings themselves are already right.
 *
 * @param originals original text by rewritten text
 */
export function restoreSourcesContent(write: ts.WriteFileCallback, originals: ReadonlyMap<string, string>): ts.WriteFileCallback {
  return (fileName, text, ...rest) => {
    let output = text;
    if (fileName.endsWith('.map') && text.includes('"sourcesContent"')) {
      output = restore(text, originals);
    } else {
      const inline = inlineMap.exec(text);
      if (inline !== null) {
        const json = Buffer.from(inline[2]!, 'base64').toString('utf8');
        const restored = restore(json, originals);
        if (restored !== json) output = text.replace(inlineMap, `$1${Buffer.from(restored, 'utf8').toString('base64')}`);
      }
    }
    write(fileName, output, ...rest);
  };
}
