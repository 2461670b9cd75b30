// Every link and image of the built site, checked against the built files: a link to a page that
// was not built, or to a heading id the page does not have, is reported with the page it is on.
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.html'))
    .map((file) => file.split('\\').join('/'));
}

const entities: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#39;': "'", '&lt;': '<', '&gt;': '>' };
const decodeEntities = (text: string) => text.replace(/&(amp|quot|#39|lt|gt);/g, (entity) => entities[entity]!);

/** The built file a site path names (`/guide/x.html`, `/api/` → `api/index.html`). */
function fileOf(path: string): string {
  const clean = path.replace(/^\//, '');
  return clean === '' || clean.endsWith('/') ? `${clean}index.html` : clean;
}

/** Broken links of the site in `root` (empty when every link resolves), one line each. */
export function brokenLinks(root: string): string[] {
  const pages = htmlFiles(root);
  const ids = new Map<string, Set<string>>();
  for (const page of pages) {
    const html = readFileSync(join(root, page), 'utf8');
    ids.set(page, new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => decodeEntities(m[1]!))));
  }
  const broken: string[] = [];
  for (const page of pages) {
    const html = readFileSync(join(root, page), 'utf8');
    const targets = [
      ...[...html.matchAll(/<a\s[^>]*?href="([^"]*)"/g)].map((m) => m[1]!),
      ...[...html.matchAll(/<img\s[^>]*?src="([^"]*)"/g)].map((m) => m[1]!),
    ].map(decodeEntities);
    for (const target of targets) {
      if (/^(https?:|mailto:|data:)/.test(target)) continue;
      const [pathPart = '', hash] = target.split('#');
      const path = pathPart === '' ? `/${page}` : pathPart.startsWith('/') ? pathPart : posix.join(posix.dirname(`/${page}`), pathPart);
      const file = fileOf(path);
      const known = ids.get(file);
      if (known === undefined) {
        let exists = true;
        try {
          readFileSync(join(root, file));
        } catch {
          exists = false;
        }
        if (!exists) broken.push(`${page}: ${target} (no file ${relative(root, join(root, file))})`);
        else if (hash) broken.push(`${page}: ${target} (an anchor into a file that is not a page)`);
        continue;
      }
      if (hash && !known.has(decodeURIComponent(hash))) broken.push(`${page}: ${target} (no heading #${decodeURIComponent(hash)})`);
    }
  }
  return broken;
}
